import BelayCore
import Foundation

extension MeetupSearchIndex {
    /// Entries sorted by start and id, with what finds them fast: grams of the title and of
    /// all the text, gyms and cells of a tenth of a degree, each a list of positions in order.
    final class Base: Sendable {
        let entries: [Entry]
        /// Every entry's title and text as UTF-8, one after the other: searched without a
        /// reference count touched per entry.
        private let wordBytes: [UInt8]
        /// Where each entry's title starts in `wordBytes`, where it ends (and its text starts), and where its text ends.
        private let wordSpans: [(start: Int32, titleEnd: Int32, textEnd: Int32)]
        private let positions: [Int64: Int32]
        private let titlePostings: Postings<UInt64>
        private let textPostings: Postings<UInt64>
        private let gymPostings: Postings<Int64>
        private let cells: Postings<Int64>

        static let cellE6: Int64 = 100_000

        init(_ unsorted: [(Entry, Words)]) {
            let sorted = unsorted.sorted { ($0.0.startsAt, $0.0.id) < ($1.0.startsAt, $1.0.id) }
            entries = sorted.map(\.0)
            let words = sorted.map(\.1)
            var positions: [Int64: Int32] = [:]
            var titlePostings: [UInt64: [Int32]] = [:]
            var textPostings: [UInt64: [Int32]] = [:]
            var gymPostings: [Int64: [Int32]] = [:]
            var cells: [Int64: [Int32]] = [:]
            var wordBytes: [UInt8] = []
            var wordSpans: [(start: Int32, titleEnd: Int32, textEnd: Int32)] = []
            wordSpans.reserveCapacity(entries.count)
            positions.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                let start = Int32(wordBytes.count)
                wordBytes += words[index].title.utf8
                let titleEnd = Int32(wordBytes.count)
                wordBytes += words[index].text.utf8
                wordSpans.append((start, titleEnd, Int32(wordBytes.count)))
                let position = Int32(index)
                positions[entry.id] = position
                for key in SearchText.gramKeys(ofFolded: words[index].title) { titlePostings[key, default: []].append(position) }
                for key in SearchText.gramKeys(ofFolded: words[index].text) { textPostings[key, default: []].append(position) }
                if let gym = entry.gymID { gymPostings[gym, default: []].append(position) }
                if let latitude = entry.latitudeE6, let longitude = entry.longitudeE6 {
                    cells[Self.cell(latitude: latitude, longitude: longitude), default: []].append(position)
                }
            }
            self.wordBytes = wordBytes
            self.wordSpans = wordSpans
            self.positions = positions
            self.titlePostings = Postings(titlePostings)
            self.textPostings = Postings(textPostings)
            self.gymPostings = Postings(gymPostings)
            self.cells = Postings(cells)
        }

        func position(of id: Int64) -> Int32? { positions[id] }

        /// The title and text of the entry at `index`, as they were given.
        func words(at index: Int) -> Words {
            let span = wordSpans[index]
            return Words(title: String(decoding: wordBytes[Int(span.start)..<Int(span.titleEnd)], as: UTF8.self),
                         text: String(decoding: wordBytes[Int(span.titleEnd)..<Int(span.textEnd)], as: UTF8.self))
        }

        static func cell(latitude: Int64, longitude: Int64) -> Int64 {
            ((latitude + 90_000_000) / cellE6) * 4_096 + (longitude + 180_000_000) / cellE6
        }

        // MARK: Matching

        /// `entry` with its distance key when it meets every filter of `request` but the words
        /// (rank 0: `rank(title:text:words:)` tells the rest).
        func match(_ entry: Entry, _ request: Request) -> Found? {
            guard entry.endsAt > request.now else { return nil }
            if let gym = request.gymID, entry.gymID != gym { return nil }
            if let discipline = request.discipline, entry.discipline != discipline { return nil }
            if entry.tagMask & request.tagMask != request.tagMask { return nil }
            if request.hasSpots, entry.going >= entry.capacity { return nil }
            if let from = request.fromDay, Int(entry.day) < from { return nil }
            if let to = request.toDay, Int(entry.day) > to { return nil }
            if !request.levelRanges.isEmpty {
                guard let axis = entry.levelAxis, request.levelRanges.contains(where: {
                    $0.axis == axis && entry.levelMin <= Int64($0.highest) && entry.levelMax >= Int64($0.lowest)
                }) else { return nil }
            }
            var distanceKey: Int64?
            if let near = request.near {
                guard let latitude = entry.latitudeE6, let longitude = entry.longitudeE6,
                      latitude >= near.box.minLatitude, latitude <= near.box.maxLatitude,
                      longitude >= near.box.minLongitude, longitude <= near.box.maxLongitude else { return nil }
                let dLatitude = latitude - near.latitudeE6
                let dLongitude = Double(longitude - near.longitudeE6) * near.longitudeScale
                // As the database's CAST(… AS BIGINT): the squares' sum, truncated.
                let key = Int64(Double(dLatitude * dLatitude) + dLongitude * dLongitude)
                guard key <= near.radiusKey else { return nil }
                distanceKey = key
            }
            return Found(entry: entry, rank: 0, distanceKey: distanceKey)
        }

        /// `entry` and its `words` as `match` and `rank` find them: for the changes, kept apart from the sorted entries.
        func match(_ entry: Entry, _ words: Words, _ request: Request) -> Found? {
            guard let found = match(entry, request) else { return nil }
            guard !request.words.isEmpty else { return found }
            var title = words.title, text = words.text
            let rank = title.withUTF8 { title in text.withUTF8 { text in Self.rank(title: title, text: text, words: request.words) } }
            return rank.map { Found(entry: entry, rank: $0, distanceKey: found.distanceKey) }
        }

        /// 0 when `title` holds every word, 1 when only `text` does, nil when `text` lacks one.
        /// (The text begins with the title, so a word in the title is in the text.)
        static func rank(title: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>, words: [[UInt8]]) -> Int64? {
            var rank: Int64 = 0
            for word in words {
                let found = word.withUnsafeBufferPointer { word in contains(title, word) ? true : contains(text, word) ? false : nil }
                guard let inTitle = found else { return nil }
                if !inTitle { rank = 1 }
            }
            return rank
        }

        /// Whether folded `haystack` holds `needle`, byte for byte (as `instr` and `strpos`).
        static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = needle.first else { return true }
            guard let haystackStart = haystack.baseAddress, let needleStart = needle.baseAddress, haystack.count >= needle.count else {
                return false
            }
            // memchr finds each place the first byte is (many bytes at a time), memcmp checks the rest.
            var offset = 0
            let lastStart = haystack.count - needle.count
            while offset <= lastStart {
                guard let found = memchr(haystackStart + offset, Int32(first), lastStart - offset + 1) else { return false }
                let at = haystackStart.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(haystackStart + at, needleStart, needle.count) == 0 { return true }
                offset = at + 1
            }
            return false
        }

        static func precedes(_ a: Found, _ b: Found, byDistance: Bool) -> Bool {
            byDistance ? (a.distanceKey ?? 0, a.entry.id) < (b.distanceKey ?? 0, b.entry.id)
                       : (a.rank, a.entry.startsAt, a.entry.id) < (b.rank, b.entry.startsAt, b.entry.id)
        }

        static func isAfter(_ found: Found, _ request: Request) -> Bool {
            guard let after = request.after else { return true }
            return request.byDistance ? (found.distanceKey ?? 0, found.entry.id) > (after.key, after.id)
                                      : (found.rank, found.entry.startsAt, found.entry.id) > (after.rank, after.key, after.id)
        }

        // MARK: Searching

        /// Up to `request.count` of the sorted entries found, in order, leaving out those in `skipping`.
        func search(_ request: Request, skipping changed: [Int64: Change]?) -> [Found] {
            let window = startWindow(request)
            guard window.lowerBound < window.upperBound else { return [] }
            return wordBytes.withUnsafeBufferPointer { bytes in search(request, window: window, bytes: bytes, skipping: changed) }
        }

        private func search(_ request: Request, window: Range<Int>, bytes: UnsafeBufferPointer<UInt8>, skipping changed: [Int64: Change]?) -> [Found] {
            // Words of two letters are one gram each: the postings alone then say whether the
            // title and the text hold them, without reading either.
            var titleCursors: [PostingCursor] = [], textCursors: [PostingCursor] = []
            func startGramCursors() {
                guard request.wordsAreGrams else { return }
                titleCursors = request.grams.map { PostingCursor(titlePostings[$0] ?? []) }
                textCursors = request.grams.map { PostingCursor(textPostings[$0] ?? []) }
            }
            func keep(_ position: Int32, rank wanted: Int64?) -> Found? {
                var knownRank: Int64?
                if request.wordsAreGrams {
                    let inTitle = titleCursors.indices.allSatisfy { titleCursors[$0].contains(position) }
                    let inText = inTitle || textCursors.indices.allSatisfy { textCursors[$0].contains(position) }
                    guard inText else { return nil }
                    knownRank = inTitle ? 0 : 1
                    if let wanted, knownRank != wanted { return nil }
                }
                let entry = entries[Int(position)]
                if let changed, changed[entry.id] != nil { return nil }
                guard var found = match(entry, request) else { return nil }
                if let knownRank {
                    found = Found(entry: entry, rank: knownRank, distanceKey: found.distanceKey)
                } else if !request.words.isEmpty {
                    let span = wordSpans[Int(position)]
                    let title = UnsafeBufferPointer(rebasing: bytes[Int(span.start)..<Int(span.titleEnd)])
                    let text = UnsafeBufferPointer(rebasing: bytes[Int(span.titleEnd)..<Int(span.textEnd)])
                    guard let rank = Self.rank(title: title, text: text, words: request.words) else { return nil }
                    found = Found(entry: entry, rank: rank, distanceKey: found.distanceKey)
                }
                guard wanted == nil || found.rank == wanted, Self.isAfter(found, request) else { return nil }
                return found
            }
            if request.byDistance {
                guard let candidates = candidates(request, window: window, titleOnly: false) else { return [] }
                startGramCursors()
                var found: [Found] = []
                candidates.forEach { position in if let match = keep(position, rank: nil) { found.append(match) } }
                found.sort { Self.precedes($0, $1, byDistance: true) }
                return Array(found.prefix(request.count))
            }
            var found: [Found] = []
            // Title matches first, then the rest; each walk in start order stops once it has enough.
            for rank: Int64 in request.words.isEmpty ? [0] : [0, 1] {
                if let after = request.after, after.rank > rank { continue }
                guard found.count < request.count, let candidates = candidates(request, window: window, titleOnly: rank == 0) else { continue }
                startGramCursors()
                candidates.forEachWhile { position in
                    guard found.count < request.count else { return false }
                    if let match = keep(position, rank: request.words.isEmpty ? nil : rank) { found.append(match) }
                    return true
                }
            }
            return found
        }

        /// The positions whose start can be in the request's days (each meetup's own day is a
        /// day either side of UTC's at most, as the database's list reads it).
        private func startWindow(_ request: Request) -> Range<Int> {
            var lower = 0, upper = entries.count
            if let from = request.fromDay { lower = firstPosition(startingAtOrAfter: Int64(from) * 86_400_000 - 15 * 3_600_000) }
            if let to = request.toDay { upper = firstPosition(startingAtOrAfter: Int64(to + 1) * 86_400_000 + 15 * 3_600_000) }
            if !request.byDistance, request.words.isEmpty, let after = request.after {
                lower = max(lower, firstPosition(startingAtOrAfter: after.key))
            }
            return lower..<max(lower, upper)
        }

        private func firstPosition(startingAtOrAfter milliseconds: Int64) -> Int {
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].startsAt < milliseconds { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The smallest list of positions that holds every match within `window`: the window
        /// itself, a gram's, the gym's or the cells around the point; nil when nothing can match.
        private func candidates(_ request: Request, window: Range<Int>, titleOnly: Bool) -> Candidates? {
            var best = Candidates.window(window)
            var bestCount = window.count
            func consider(_ list: ArraySlice<Int32>?) -> Bool {
                guard let list else { return false }
                let slice = Self.slice(list, within: window)
                if slice.count < bestCount {
                    best = .list(slice)
                    bestCount = slice.count
                }
                return true
            }
            for gram in request.grams {
                guard consider((titleOnly ? titlePostings : textPostings)[gram]) else { return nil }
            }
            if let gym = request.gymID, !consider(gymPostings[gym]) { return nil }
            if let near = request.near {
                let latitudes = Self.cellRange(near.box.minLatitude + 90_000_000, near.box.maxLatitude + 90_000_000)
                let longitudes = Self.cellRange(near.box.minLongitude + 180_000_000, near.box.maxLongitude + 180_000_000)
                if latitudes.count * longitudes.count <= 4_096 {
                    var lists: [ArraySlice<Int32>] = []
                    var total = 0
                    for latitude in latitudes {
                        for longitude in longitudes {
                            guard let list = cells[latitude * 4_096 + longitude] else { continue }
                            let slice = Self.slice(list, within: window)
                            if !slice.isEmpty {
                                lists.append(slice)
                                total += slice.count
                            }
                        }
                    }
                    if total == 0 { return nil }
                    if total < bestCount {
                        best = .list(lists.count == 1 ? lists[0] : ArraySlice(lists.flatMap { $0 }.sorted()))
                        bestCount = total
                    }
                }
            }
            return best
        }

        private static func cellRange(_ low: Int64, _ high: Int64) -> ClosedRange<Int64> {
            (max(0, low) / cellE6)...(max(0, high) / cellE6)
        }

        /// The part of sorted `list` that falls within `window`.
        private static func slice(_ list: ArraySlice<Int32>, within window: Range<Int>) -> ArraySlice<Int32> {
            func first(atLeast value: Int) -> Int {
                var low = list.startIndex, high = list.endIndex
                while low < high {
                    let middle = (low + high) / 2
                    if Int(list[middle]) < value { low = middle + 1 } else { high = middle }
                }
                return low
            }
            return list[first(atLeast: window.lowerBound)..<first(atLeast: window.upperBound)]
        }
    }

    /// A walk along one sorted list of positions, asked about positions in ascending order.
    struct PostingCursor {
        let list: ArraySlice<Int32>
        var index: Int

        init(_ list: ArraySlice<Int32>) {
            self.list = list
            index = list.startIndex
        }

        /// Whether the list holds `position` (no smaller than any asked before).
        mutating func contains(_ position: Int32) -> Bool {
            while index < list.endIndex && list[index] < position { index += 1 }
            return index < list.endIndex && list[index] == position
        }
    }

    /// Lists of positions by key, all in one array: a dictionary of arrays costs each list its
    /// header and its growth's slack, several times the positions themselves for the text's grams.
    struct Postings<Key: Hashable & Sendable>: Sendable {
        private let spans: [Key: Range<Int32>]
        private let positions: [Int32]

        init(_ lists: [Key: [Int32]]) {
            var spans: [Key: Range<Int32>] = [:]
            spans.reserveCapacity(lists.count)
            var positions: [Int32] = []
            positions.reserveCapacity(lists.values.reduce(0) { $0 + $1.count })
            for (key, list) in lists {
                let start = Int32(positions.count)
                positions += list
                spans[key] = start..<Int32(positions.count)
            }
            self.spans = spans
            self.positions = positions
        }

        subscript(key: Key) -> ArraySlice<Int32>? {
            spans[key].map { positions[Int($0.lowerBound)..<Int($0.upperBound)] }
        }
    }

    /// Positions to look at, in order.
    enum Candidates {
        case window(Range<Int>)
        case list(ArraySlice<Int32>)

        /// Calls `body` with each position in order while it returns true.
        func forEachWhile(_ body: (Int32) -> Bool) {
            switch self {
            case .window(let range):
                for position in range where !body(Int32(position)) { return }
            case .list(let list):
                for position in list where !body(position) { return }
            }
        }

        func forEach(_ body: (Int32) -> Void) {
            forEachWhile { position -> Bool in
                body(position)
                return true
            }
        }
    }
}
