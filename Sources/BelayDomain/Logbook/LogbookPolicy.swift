import Foundation

/// How the logbook touches stories, rankings and the notices about projects (`logbook.*` in `config.json`).
public struct LogbookPolicy: Sendable, Hashable {
    /// Ticks logged at a meetup after its reward's story was drawn redraw the story at most
    /// this often (the redraw waits this long, and later ticks join it).
    public var storyRefreshSeconds: Int
    /// A gym's ranking sums each member's this many hardest sends…
    public var rankingBest: Int
    /// …over this many days.
    public var rankingDays: Int
    /// A member who tried a problem and has not sent it is told this many days before its
    /// expected removal (0: never).
    public var projectEndingDays: Int

    public init(storyRefreshSeconds: Int = 120, rankingBest: Int = 10, rankingDays: Int = 60, projectEndingDays: Int = 3) {
        self.storyRefreshSeconds = storyRefreshSeconds
        self.rankingBest = rankingBest
        self.rankingDays = rankingDays
        self.projectEndingDays = projectEndingDays
    }
}
