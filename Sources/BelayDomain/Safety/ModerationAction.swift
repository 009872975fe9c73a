import Foundation

/// What a moderator can do about a reported subject. The raw values are part of the API and
/// of the audit log.
public enum ModerationActionKind: String, Sendable, CaseIterable, Hashable {
    /// Nothing to do: the open reports are closed as dismissed.
    case dismiss
    /// The content leaves lists and its pages answer 410; for a member, their display name is
    /// replaced by a neutral one they must change.
    case hide
    /// The member is told which rule they broke; nothing else changes.
    case warn
    /// The member cannot sign in, their sessions and tokens end, their upcoming meetups are
    /// cancelled; for a time or for good.
    case suspend
    /// Ends a suspension, or shows hidden content again.
    case lift
    /// Belay hid the subject itself after enough distinct members reported it.
    case autoHide = "auto_hide"
    /// An admin (or the operator) removed the member's second factor: written by
    /// `SecondFactorService.reset`, never asked for through the moderation queue.
    case resetSecondFactor = "reset_second_factor"

    /// The actions a moderator asks for (the automatic hide is Belay's own).
    public static let requestable: [ModerationActionKind] = [.dismiss, .hide, .warn, .suspend, .lift]
}

/// A moderator's request to act on a subject.
public struct ModerationRequest: Sendable, Hashable {
    public var action: ModerationActionKind
    public var subjectType: ReportSubjectType
    public var subjectID: String
    /// Why, in the moderator's words: kept in the audit log and, for warn and suspend, named
    /// to the member. Required (1–1,000 characters).
    public var reason: String
    /// For `suspend`: until when; nil suspends for good.
    public var until: Date?

    public init(action: ModerationActionKind, subjectType: ReportSubjectType, subjectID: String, reason: String, until: Date? = nil) {
        self.action = action
        self.subjectType = subjectType
        self.subjectID = subjectID
        self.reason = reason
        self.until = until
    }
}

/// One entry of the append-only moderation log.
public struct ModerationAction: Sendable, Hashable {
    public let id: Int64
    /// The moderator; nil for the command line and for Belay's automatic hide.
    public let moderatorID: Int64?
    public let action: ModerationActionKind
    public let subjectType: ReportSubjectType
    public let subjectID: String
    public let reason: String
    /// The open reports the action answered.
    public let reportIDs: [Int64]
    /// For a suspension: until when; nil for good.
    public let until: Date?
    public let createdAt: Date
}

/// A subject in the moderators' queue: its open reports taken together, and the content as
/// it was when first reported.
public struct ReportedSubject: Sendable, Hashable {
    public let subjectType: ReportSubjectType
    public let subjectID: String
    /// The member responsible for the subject (the meetup's host, the page's owner, the member).
    public let subjectUserID: Int64?
    /// The content when first reported, as a JSON object.
    public let snapshot: String
    /// The open reports, oldest first (without their reporters).
    public let reports: [Report]
    /// Whether the subject is hidden now (by a moderator or automatically).
    public let hidden: Bool

    /// How many open reports give each reason.
    public var reasons: [ReportReason: Int] {
        reports.reduce(into: [:]) { counts, report in counts[report.reason, default: 0] += 1 }
    }

    /// When the oldest open report was filed.
    public var firstReportedAt: Date? { reports.first?.createdAt }
}
