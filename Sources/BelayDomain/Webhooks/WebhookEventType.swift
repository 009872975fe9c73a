import Foundation

/// The kinds of event Belay delivers to webhook endpoints. The raw values are the `type`
/// of the payload and part of the API; they never change.
public enum WebhookEventType: String, Sendable, CaseIterable, Hashable {
    case attendanceJoined = "attendance.joined"
    case attendancePromoted = "attendance.promoted"
    case attendanceLeft = "attendance.left"
    case attendanceOfferExpired = "attendance.offer_expired"
    case checkInCreated = "check_in.created"
    case checkInUndone = "check_in.undone"
    case rewardReady = "reward.ready"
    case meetupCreated = "meetup.created"
    case meetupUpdated = "meetup.updated"
    case meetupCancelled = "meetup.cancelled"
    case meetupCompleted = "meetup.completed"
    /// A member logged climbs: one event per request (a batch of up to 200 is one event), `data`
    /// is `{"user_id": …, "ticks": [...]}` with the ticks logged now and not kept private.
    case tickCreated = "tick.created"
    /// A member deleted their account (or an admin deleted it); `data` is only `{"id": …}`.
    case userDeleted = "user.deleted"
    /// A member reported something; `data` names the report, its subject and reason, never the reporter.
    case reportCreated = "report.created"
    /// A moderator hid content, or enough reports hid it automatically; `data` names the subject.
    case contentHidden = "content.hidden"
    /// A moderator suspended a member; `data` has the member's id and until when (null: for good).
    case memberSuspended = "member.suspended"
    /// Sent only by `WebhookService.sendTest`, to the one endpoint asked for.
    case webhookTest = "webhook.test"

    /// Parses a comma-separated list (`attendance.joined,check_in.created`); an empty list
    /// or `*` means every type and gives an empty set.
    /// - Throws: `DomainError` (`invalid_input`, field `events`) naming an unknown type and
    ///   the known ones.
    public static func parseList(_ text: String) throws -> Set<WebhookEventType> {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names.isEmpty || names == ["*"] { return [] }
        var types: Set<WebhookEventType> = []
        for name in names {
            guard let type = WebhookEventType(rawValue: name), type != .webhookTest else {
                let known = allCases.filter { $0 != .webhookTest }.map(\.rawValue).joined(separator: ", ")
                throw DomainError.invalid("events", "'\(name)' is not an event type; use one or more of \(known), or * for all")
            }
            types.insert(type)
        }
        return types
    }

    /// The set as stored: sorted raw values joined by commas, `""` for every type.
    static func storedList(_ types: Set<WebhookEventType>) -> String {
        types.map(\.rawValue).sorted().joined(separator: ",")
    }
}
