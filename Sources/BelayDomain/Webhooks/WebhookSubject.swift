/// What a webhook event is about. An endpoint receives the events of one subject in the
/// order they happened; subjects take turns, so a flood about one (a member joining and
/// leaving a thousand times) does not hold back the others.
///
/// A member's attendance, check-in, reward and deletion events share the member's subject
/// (so `check_in.created` follows that member's `attendance.joined`); a meetup's own events
/// (`meetup.*`) are the meetup's; a `webhook.test` is its endpoint's.
struct WebhookSubject: Sendable, Hashable {
    /// As stored in `webhook_deliveries.subject`, e.g. `member:12`.
    let key: String

    static func member(_ id: Int64) -> WebhookSubject { WebhookSubject(key: "member:\(id)") }
    static func meetup(_ id: Int64) -> WebhookSubject { WebhookSubject(key: "meetup:\(id)") }
    /// A reported subject's reports and moderation (`report:meetup:12`), in the order they happened.
    static func reported(_ type: ReportSubjectType, _ id: String) -> WebhookSubject { WebhookSubject(key: "report:\(type.rawValue):\(id)") }
    static func endpoint(_ id: Int64) -> WebhookSubject { WebhookSubject(key: "endpoint:\(id)") }
}
