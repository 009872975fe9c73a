/// How soon a kind of notice goes out when many are due at once: the outbox claims every due
/// notice of a higher priority before any of a lower one, and oldest due first within one.
/// The raw values are stored (`push_notices.priority`) and read as P0, P1, P2: the lowest
/// number goes first.
///
/// Strict, with no ageing: a lower priority waits while higher ones are due. Higher ones come
/// from what one member did or is owed (a check-in's sticker, one freed place), so they are as
/// many as the club's check-ins and leavings, and the flood they could make ends with the burst.
public enum NoticePriority: Int, Sendable, CaseIterable {
    /// A member is waiting for it, or has minutes to act on it.
    case high = 0
    /// Changes to plans the member made, and what the moderators did.
    case normal = 1
    /// Fan-outs and reminders that are still of use minutes later.
    case low = 2
}
