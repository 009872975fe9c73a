/// What a meetup's link-preview card shows: the club, the title, when and where, the level
/// and the places left, every text as the page writes it (any script).
public struct MeetupCardContent: Sendable, Hashable {
    public var clubName: String
    public var title: String
    /// `2026년 12월 12일 토요일 오후 7:00`.
    public var when: String
    /// The gym or the place.
    public var place: String
    /// `V3–V5`, or "" for every level.
    public var level: String
    /// `6자리 남음`.
    public var placesLeft: String
    /// A BCP 47 language tag for shaping and the Han forms (`ko`, `ja`, `en`).
    public var language: String

    public init(clubName: String, title: String, when: String, place: String, level: String, placesLeft: String, language: String) {
        self.clubName = clubName
        self.title = title
        self.when = when
        self.place = place
        self.level = level
        self.placesLeft = placesLeft
        self.language = language
    }
}
