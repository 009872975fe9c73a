import BelayCore
import BelayDomain
import Foundation

/// A member on the caller's block or ban list.
public struct BlockedMemberBody: JSONRepresentable {
    public let member: BlockedMember

    public init(member: BlockedMember) { self.member = member }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("user_id", member.userID)
            json.member("handle", member.handle)
            json.member("display_name", member.displayName)
            json.member("since", RFC3339.string(from: member.since, fraction: .none))
        }
    }
}

/// Whether the caller now blocks (or bans) a member.
public struct BlockStateBody: JSONRepresentable {
    public let userID: Int64
    public let active: Bool
    /// `blocked` or `banned`.
    public let name: StaticString

    public init(userID: Int64, active: Bool, name: StaticString) {
        self.userID = userID
        self.active = active
        self.name = name
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("user_id", userID)
            json.member(name, active)
        }
    }
}

/// A report as its reporter sees it; never who filed it.
public struct ReportBody: JSONRepresentable {
    public let report: Report

    public init(report: Report) { self.report = report }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", report.id)
            json.member("subject_type", report.subjectType.rawValue)
            json.member("subject_id", report.subjectID)
            json.member("reason", report.reason.rawValue)
            json.member("note", report.note)
            json.member("status", report.status.rawValue)
            json.member("outcome", report.outcome?.rawValue)
            json.member("created_at", RFC3339.string(from: report.createdAt, fraction: .none))
            json.member("updated_at", RFC3339.string(from: report.updatedAt, fraction: .none))
            json.member("resolved_at", report.resolvedAt.map { RFC3339.string(from: $0, fraction: .none) })
        }
    }
}

/// A subject in the moderators' queue, with its snapshot and open reports.
public struct ReportedSubjectBody: JSONRepresentable {
    public let subject: ReportedSubject

    public init(subject: ReportedSubject) { self.subject = subject }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("subject_type", subject.subjectType.rawValue)
            json.member("subject_id", subject.subjectID)
            json.member("subject_user_id", subject.subjectUserID)
            json.key("snapshot")
            json.value((try? JSONParser.parse(subject.snapshot)) ?? .object([:]))
            json.member("hidden", subject.hidden)
            json.member("report_count", subject.reports.count)
            json.member("first_reported_at", subject.firstReportedAt.map { RFC3339.string(from: $0, fraction: .none) })
            json.member("reasons", object: { json in
                for (reason, count) in subject.reasons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    json.key(dynamic: reason.rawValue)
                    json.integer(Int64(count))
                }
            })
            json.key("reports")
            json.array(subject.reports) { json, report in
                json.object { json in
                    json.member("id", report.id)
                    json.member("reason", report.reason.rawValue)
                    json.member("note", report.note)
                    json.member("created_at", RFC3339.string(from: report.createdAt, fraction: .none))
                }
            }
        }
    }
}

/// An entry of the moderation log.
public struct ModerationActionBody: JSONRepresentable {
    public let action: ModerationAction

    public init(action: ModerationAction) { self.action = action }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", action.id)
            json.member("moderator_id", action.moderatorID)
            json.member("action", action.action.rawValue)
            json.member("subject_type", action.subjectType.rawValue)
            json.member("subject_id", action.subjectID)
            json.member("reason", action.reason)
            json.key("report_ids")
            json.array(action.reportIDs) { json, id in json.integer(id) }
            json.member("until", action.until.map { RFC3339.string(from: $0, fraction: .none) })
            json.member("created_at", RFC3339.string(from: action.createdAt, fraction: .none))
        }
    }
}

/// The caller's acceptance of the club's terms.
public struct TermsAcceptanceBody: JSONRepresentable {
    public let version: String
    public let acceptedAt: Date

    public init(version: String, acceptedAt: Date) {
        self.version = version
        self.acceptedAt = acceptedAt
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("version", version)
            json.member("accepted_at", RFC3339.string(from: acceptedAt, fraction: .none))
        }
    }
}
