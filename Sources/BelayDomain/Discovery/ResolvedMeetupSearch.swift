import BelayCore
import Foundation

/// A search with its inputs read: the words and grams of its text, the score ranges of its
/// level, the box around its point. Made by `MeetupService` before the list's one read.
struct ResolvedMeetupSearch: Sendable {
    /// Folded words of two or more characters: each must be in the meetup's text.
    var words: [String] = []
    /// Their grams, which the index must hold.
    var grams: [String] = []
    var levelRanges: [GradeRange] = []
    var near: GeoPoint?
    var radiusKilometres: Double = MeetupSearch.defaultRadiusKilometres

    /// The longest `q` a search takes, in characters.
    static let maximumTextLength = 100
    /// The most words of `q` that count.
    static let maximumWords = 8

    /// Reads `search`.
    /// - Throws: `DomainError.invalid` naming the parameter (`q`, `level`, `radius_km`, `sort`, `from`).
    init(_ search: MeetupSearch, preferences: LogbookPreferences) throws {
        if let text = search.text {
            guard text.count <= Self.maximumTextLength else {
                throw DomainError.invalid("q", "q is at most \(Self.maximumTextLength) characters (got \(text.count))")
            }
            let folded = SearchText.folded(text)
            var seen = Set<String>()
            words = SearchText.words(ofFolded: folded).filter { $0.unicodeScalars.count >= 2 && seen.insert($0).inserted }
            guard !words.isEmpty else {
                throw DomainError.invalid("q", "q needs a word of at least two letters or digits, such as 강남 or bouldering (got \"\(text)\")")
            }
            words = Array(words.prefix(Self.maximumWords))
            var gramSet = Set<String>()
            grams = words.flatMap(SearchText.grams(ofWord:)).filter { gramSet.insert($0).inserted }
        }
        if let level = search.level {
            levelRanges = try MeetupLevel.searchRanges(for: level, discipline: search.discipline, preferences: preferences)
        }
        near = search.near
        if let radius = search.radiusKilometres {
            guard search.near != nil else {
                throw DomainError.invalid("radius_km", "radius_km goes with near=LAT,LON; give both, or neither")
            }
            guard radius.isFinite, radius > 0, radius <= MeetupSearch.maximumRadiusKilometres else {
                throw DomainError.invalid("radius_km", "radius_km is more than 0 and at most \(Int(MeetupSearch.maximumRadiusKilometres)) (got \(radius))")
            }
            radiusKilometres = radius
        }
        if search.sort == .distance, search.near == nil {
            throw DomainError.invalid("sort", "sort=distance needs near=LAT,LON: the distance is from there")
        }
        if let from = search.from, let to = search.to, to < from {
            throw DomainError.invalid("to", "to (\(to)) is before from (\(from)); give the days in order")
        }
    }

    /// The distance key's bound: squared millionths of a degree (latitude-equivalent).
    var radiusKeySquared: Double {
        let degrees = radiusKilometres / (GeoPoint.earthRadiusKilometres * Double.pi / 180) * 1_000_000
        return degrees * degrees
    }
}
