import BelayCore
import BelayStorage
import Foundation
import Synchronization

/// The meetups still to come that a stranger's search may find, held in memory so that a
/// search costs a walk over a few hundred of them instead of a query and a row read per result.
///
/// It answers what `MeetupRepository.list` answers for a search of public meetups, in the same
/// order and with the same cursors: the database's list stays the reference (and answers every
/// other list), and a test holds the two to each other.
///
/// Freshness: every change to a meetup's row takes the next revision (by trigger). A search
/// asks the database for the highest one whenever this process has committed a write since the
/// last look, or the last look is `othersChangesShowWithin` (a tenth of a second) old, and then
/// reads just the rows changed since. So a search sees every change this process committed
/// before it, and another process's or node's within a tenth of a second. On PostgreSQL a
/// transaction may commit after another that took a later revision; the revisions skipped over
/// are read again for `holdingGapsFor` (two seconds), so such a change shows as soon.
final class MeetupSearchIndex: Sendable {
    /// One meetup as a search sees it.
    struct Entry: Sendable {
        let id: Int64
        /// Milliseconds since 1970.
        let startsAt: Int64
        let endsAt: Int64
        /// The day it starts on in its own zone, days since 1970-01-01.
        let day: Int32
        let latitudeE6: Int64?
        let longitudeE6: Int64?
        let going: Int64
        let capacity: Int64
        let gymID: Int64?
        let discipline: MeetupDiscipline?
        let levelAxis: GradeAxis?
        let levelMin: Int64
        let levelMax: Int64
        let tagMask: UInt32
    }

    /// What a meetup's words are searched in: folded, as `search_title` and `search_text`.
    /// Kept apart from its `Entry`, which copies without touching a reference count.
    struct Words: Sendable {
        let title: String
        let text: String
    }

    /// A search as the index reads it.
    struct Request {
        /// Folded words as UTF-8, each of which the text must hold (the title too, for rank 0).
        var words: [[UInt8]] = []
        var grams: [UInt64] = []
        /// Every word is two letters, one gram: the postings tell where they are.
        var wordsAreGrams = false
        var near: (latitudeE6: Int64, longitudeE6: Int64, longitudeScale: Double, radiusKey: Int64,
                   box: (minLatitude: Int64, maxLatitude: Int64, minLongitude: Int64, maxLongitude: Int64))?
        var gymID: Int64?
        var discipline: MeetupDiscipline?
        var tagMask: UInt32 = 0
        var hasSpots = false
        var fromDay: Int?
        var toDay: Int?
        var levelRanges: [GradeRange] = []
        var byDistance = false
        /// The position the page starts after: (title rank, start, id), or (0, distance key, id).
        var after: (rank: Int64, key: Int64, id: Int64)?
        /// How many to find at most (a page and one more, to know whether there is a next).
        var count = 21
        /// Milliseconds since 1970: meetups that ended by then are left out.
        var now: Int64 = 0
    }

    /// One meetup found, with what orders it.
    struct Found {
        let entry: Entry
        let rank: Int64
        let distanceKey: Int64?
    }

    /// How long a search trusts that nothing changed when this process committed nothing since
    /// the last look: the longest another process's or node's change waits to be found.
    static let othersChangesShowWithin: Duration = .milliseconds(100)
    /// How long revisions that were skipped over are read again.
    static let holdingGapsFor: Duration = .seconds(2)
    /// How often, at most, the skipped revisions are read again while nothing newer comes.
    static let rereadingGapsEvery: Duration = .milliseconds(100)
    /// Changes kept beside the sorted entries before these are sorted again.
    let changesBeforeRebuild: Int

    private let state = Mutex<Snapshot?>(nil)
    /// The last time a search asked the database: this process's commits then, when, and the
    /// latest revision it was told.
    private let lastLook = Mutex<(commits: UInt64, at: ContinuousClock.Instant, revision: Int64)>((0, .now, .max))
    private let refreshing = Mutex<Int>(0)
    private let rebuilding = Atomic<Bool>(false)
    private let clock = ContinuousClock()

    init(changesBeforeRebuild: Int = 1_024) {
        self.changesBeforeRebuild = changesBeforeRebuild
    }

    /// The changes held beside the sorted entries now (none right after they are sorted in).
    var heldChanges: Int { state.withLock { $0?.changes.count ?? 0 } }

    static func mask(of tag: MeetupTag) -> UInt32 {
        1 << UInt32(MeetupTag.allCases.firstIndex(of: tag) ?? 31)
    }

    // MARK: Freshness

    /// The index as of now: read from the database the first time, brought up to date with
    /// the rows changed since after that.
    /// - Throws: `DatabaseError` when the database cannot be read.
    func current(pool: any DatabaseStore, now: Date) throws -> Snapshot {
        // Read before asking, so that a commit after it makes the next search ask again.
        let commits = pool.commitCount
        let asked = clock.now
        if let known = state.withLock({ $0 }), known.gaps.isEmpty, lastLook.withLock({ look in
            look.commits == commits && asked - look.at < Self.othersChangesShowWithin && look.revision <= known.revision
        }) {
            return known
        }
        let latest = try pool.readSingleStatement { try MeetupRepository.latestRevision(in: $0) }
        defer { lastLook.withLock { $0 = (commits, asked, latest) } }
        if let known = state.withLock({ $0 }), known.isCurrent(latest: latest, at: clock.now) { return known }
        return try refreshing.withLock { _ in
            if let known = state.withLock({ $0 }) {
                if known.isCurrent(latest: latest, at: clock.now) { return known }
                let updated = try updated(known, pool: pool)
                state.withLock { $0 = updated }
                if updated.changes.count > changesBeforeRebuild { rebuildInBackground(now: now) }
                return updated
            }
            let loaded = try load(pool: pool, now: now)
            state.withLock { $0 = loaded }
            return loaded
        }
    }

    private func load(pool: any DatabaseStore, now: Date) throws -> Snapshot {
        var zones: [String: TimeZone] = [:]
        let (latest, entries) = try pool.read { db in
            (try MeetupRepository.latestRevision(in: db), try MeetupRepository.searchEntries(endingAfter: now, in: db, zones: &zones))
        }
        // Transactions on PostgreSQL may still commit revisions below the latest: read the last ones again for a while.
        let gap = Gap(revisions: max(0, latest - 255)...latest, seenAt: clock.now)
        return Snapshot(base: Base(entries), changes: [:], revision: latest, gaps: latest > 0 ? [gap] : [], refreshedAt: clock.now,
                        changeSequence: 0)
    }

    private func updated(_ known: Snapshot, pool: any DatabaseStore) throws -> Snapshot {
        let now = clock.now
        let gaps = known.gaps.filter { now - $0.seenAt < Self.holdingGapsFor }
        var zones: [String: TimeZone] = [:]
        let rows = try pool.read { db in
            try MeetupRepository.searchEntries(revisedAfter: known.revision, orIn: gaps.map(\.revisions), in: db, zones: &zones)
        }
        var changes = known.changes
        var sequence = known.changeSequence
        var seen = Set<Int64>()
        var highest = known.revision
        for row in rows {
            if row.revision > known.revision { seen.insert(row.revision) }
            highest = max(highest, row.revision)
            guard row.entry != nil || changes[row.id] != nil || known.base.position(of: row.id) != nil else { continue }
            sequence += 1
            changes[row.id] = Change(entry: row.entry, sequence: sequence)
        }
        var newGaps = gaps
        var start: Int64?
        for revision in (known.revision + 1)...max(known.revision + 1, highest) where revision <= highest {
            if seen.contains(revision) {
                if let first = start { newGaps.append(Gap(revisions: first...(revision - 1), seenAt: now)) }
                start = nil
            } else if start == nil {
                start = revision
            }
        }
        if let first = start, first <= highest { newGaps.append(Gap(revisions: first...highest, seenAt: now)) }
        if newGaps.count > 32 {
            // Too many to name one by one: one range over them all, for the same while.
            let lowest = newGaps.map(\.revisions.lowerBound).min() ?? 0, top = newGaps.map(\.revisions.upperBound).max() ?? 0
            newGaps = [Gap(revisions: lowest...top, seenAt: now)]
        }
        return Snapshot(base: known.base, changes: changes, revision: highest, gaps: newGaps, refreshedAt: now, changeSequence: sequence)
    }

    /// Sorts the changes into the entries on another thread, so that no search waits for it.
    private func rebuildInBackground(now: Date) {
        guard rebuilding.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { rebuilding.store(false, ordering: .releasing) }
            guard let known = state.withLock({ $0 }) else { return }
            let nowMilliseconds = now.millisecondsSince1970
            var entries = known.base.entries.indices.filter {
                known.changes[known.base.entries[$0].id] == nil && known.base.entries[$0].endsAt > nowMilliseconds
            }.map { (known.base.entries[$0], known.base.words(at: $0)) }
            entries += known.changes.values.compactMap(\.entry).filter { $0.0.endsAt > nowMilliseconds }
            let base = Base(entries)
            state.withLock { current in
                guard let latest = current else { return }
                // Changes read while the entries were sorted stay beside them.
                let later = latest.changes.filter { $0.value.sequence > known.changeSequence }
                current = Snapshot(base: base, changes: later, revision: latest.revision, gaps: latest.gaps,
                                   refreshedAt: latest.refreshedAt, changeSequence: latest.changeSequence)
            }
        }
    }

    // MARK: State

    struct Change: Sendable {
        /// nil: no search may find it any more.
        let entry: (Entry, Words)?
        let sequence: UInt64
    }

    struct Gap: Sendable {
        let revisions: ClosedRange<Int64>
        let seenAt: ContinuousClock.Instant
    }

    /// The entries as of one refresh: sorted ones with their postings, and the changes since.
    struct Snapshot: Sendable {
        let base: Base
        /// By meetup id: these replace the base's entry of that id.
        let changes: [Int64: Change]
        let revision: Int64
        let gaps: [Gap]
        let refreshedAt: ContinuousClock.Instant
        let changeSequence: UInt64

        func isCurrent(latest: Int64, at now: ContinuousClock.Instant) -> Bool {
            latest <= revision && (gaps.isEmpty || now - refreshedAt < MeetupSearchIndex.rereadingGapsEvery)
        }

        /// Up to `request.count` meetups found, in the list's order.
        func search(_ request: Request) -> [Found] {
            var found = base.search(request, skipping: changes.isEmpty ? nil : changes)
            for change in changes.values {
                guard let (entry, words) = change.entry, let match = base.match(entry, words, request), isAfter(match, request) else { continue }
                found.append(match)
            }
            found.sort { Base.precedes($0, $1, byDistance: request.byDistance) }
            return Array(found.prefix(request.count))
        }

        private func isAfter(_ found: Found, _ request: Request) -> Bool {
            Base.isAfter(found, request)
        }
    }

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
            var gramCursors: (title: [PostingCursor], text: [PostingCursor])?
            func startGramCursors() {
                guard request.wordsAreGrams else { return }
                gramCursors = (request.grams.map { PostingCursor(titlePostings[$0] ?? []) }, request.grams.map { PostingCursor(textPostings[$0] ?? []) })
            }
            func keep(_ position: Int32, rank wanted: Int64?) -> Found? {
                var knownRank: Int64?
                if var cursors = gramCursors {
                    defer { gramCursors = cursors }
                    let inTitle = cursors.title.indices.allSatisfy { cursors.title[$0].contains(position) }
                    let inText = inTitle || cursors.text.indices.allSatisfy { cursors.text[$0].contains(position) }
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
