import Foundation

/// What a report is about. The raw values are part of the API.
public enum ReportSubjectType: String, Sendable, CaseIterable, Hashable {
    /// A meetup (its title, description, place); `subject_id` is the meetup's id.
    case meetup
    /// A member (their display name and handle, or how they behave); `subject_id` is the user's id.
    case member
    /// A shared reward's public page; `subject_id` is its slug.
    case sharePage = "share_page"
    /// A meetup's public page, `/m/{slug}`; `subject_id` is the slug at the end of its link or
    /// the meetup's id, kept as the meetup's id. Acted on as the meetup; its snapshot holds
    /// what the page showed (the host's name when it named them, its link).
    case meetupPage = "meetup_page"
}

/// Why a member reports something. The raw values are part of the API.
public enum ReportReason: String, Sendable, CaseIterable, Hashable {
    case spam, harassment, hate, sexual, violence, dangerous, impersonation, other
}

/// Where a report stands.
public enum ReportStatus: String, Sendable, CaseIterable, Hashable {
    /// Waiting for a moderator.
    case open
    /// A moderator looked and found nothing to do.
    case dismissed
    /// A moderator acted (hid the content, warned or suspended the member).
    case actioned
}

/// A report as its reporter files it.
public struct NewReport: Sendable, Hashable {
    public var subjectType: ReportSubjectType
    /// The meetup's or member's id in decimal, the share page's slug, or a meetup page's slug or id.
    public var subjectID: String
    public var reason: ReportReason
    /// What the reporter wants the moderators to know; up to 2,000 characters.
    public var note: String

    public init(subjectType: ReportSubjectType, subjectID: String, reason: ReportReason, note: String = "") {
        self.subjectType = subjectType
        self.subjectID = subjectID
        self.reason = reason
        self.note = note
    }
}

/// A report as its reporter sees it (and as moderators see it, with the reporter kept apart).
public struct Report: Sendable, Hashable {
    public let id: Int64
    public let subjectType: ReportSubjectType
    public let subjectID: String
    public let reason: ReportReason
    public let note: String
    public let status: ReportStatus
    /// What the moderators did, once they did: `dismiss`, `hide`, `warn`, `suspend` or `auto_hide`.
    public let outcome: ModerationActionKind?
    public let createdAt: Date
    public let updatedAt: Date
    public let resolvedAt: Date?
}

/// What filing a report did.
public struct ReportFiling: Sendable, Hashable {
    public let report: Report
    /// False when the reporter's open report of the same subject was updated instead.
    public let created: Bool
    /// True when this report was the one that hid the subject automatically.
    public let hidSubject: Bool
}
