/// What a member climbed at one meetup, as their story's line says it ("7 sends · best V5",
/// "First V5 send"): from the ticks they did not keep private, grades in their own scale.
public struct ClimbingDay: Sendable, Hashable {
    /// Topped climbs: sends, flashes and repeats.
    public let sends: Int
    public let flashes: Int
    /// The hardest topped climb, in the member's scale (a colour level as its range); nil when
    /// nothing was topped.
    public let hardest: String?
    /// The hardest grade sent that day for the first time ever, in the member's scale.
    public let personalBest: String?

    public init(sends: Int, flashes: Int, hardest: String?, personalBest: String?) {
        self.sends = sends
        self.flashes = flashes
        self.hardest = hardest
        self.personalBest = personalBest
    }
}
