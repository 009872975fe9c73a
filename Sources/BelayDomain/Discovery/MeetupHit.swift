/// A meetup a search found: its id, and how far it is from the search's point when it has one.
public struct MeetupHit: Sendable, Hashable {
    public let id: Int64
    public let distanceKilometres: Double?
}
