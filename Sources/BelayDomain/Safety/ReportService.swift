import BelayCore
import BelayStorage
import Foundation

/// Members' reports of meetups, members and public pages.
///
/// One open report per reporter and subject: reporting the same thing again updates the
/// reason and note of the first. The content is kept as it was when the subject was first
/// reported (a snapshot), so an edit afterwards hides no evidence. Who reported is never
/// shown to the subject, to the moderators' queue or in webhooks. When
/// `moderation.auto_hide_reports` distinct members report one subject within the window, it is
/// hidden until a moderator looks (one hide, one `content.hidden`, however many report at once).
public final class ReportService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let policy: ModerationPolicy
    private let events: ChangeFeed

    init(pool: any DatabaseStore, clock: any TimeSource, policy: ModerationPolicy, events: ChangeFeed) {
        self.pool = pool
        self.clock = clock
        self.policy = policy
        self.events = events
    }

    /// Files (or updates) the member's report.
    /// - Throws: `DomainError`: `invalid_input` (`subject_id`, `note`), `meetup_not_found`,
    ///   `user_not_found`, `share_page_not_found`, `report_limit`.
    public func file(_ report: NewReport, by reporterID: Int64) throws -> ReportFiling {
        var report = report
        report.note = report.note.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextRule.reportNote.check(report.note)
        report.subjectID = try Self.canonicalSubjectID(report.subjectType, report.subjectID, in: pool)
        if report.subjectType == .member && report.subjectID == String(reporterID) {
            throw DomainError.invalid("subject_id", "You cannot report yourself; give the id of the member you mean")
        }
        let now = clock.now()
        return try domainCall {
            try pool.write { [policy, events] db in
                let subject = try ReportedContent.read(report.subjectType, report.subjectID, in: db)
                if let existing = try ReportRepository.openReport(reporterID: reporterID, subjectType: report.subjectType,
                                                                  subjectID: report.subjectID, in: db) {
                    try ReportRepository.update(id: existing.id, reason: report.reason, note: report.note, now: now, in: db)
                    guard let updated = try ReportRepository.find(id: existing.id, in: db) else { throw ReportService.vanished(existing.id) }
                    return ReportFiling(report: updated, created: false, hidSubject: false)
                }
                if policy.reportsPerMemberPerDay > 0,
                   try ReportRepository.count(reporterID: reporterID, since: now.addingTimeInterval(-86_400), in: db) >= policy.reportsPerMemberPerDay {
                    throw DomainError(.reportLimit, "You have filed \(policy.reportsPerMemberPerDay) reports in the last 24 hours, as many as the club takes from one member; try again tomorrow")
                }
                let snapshot = try ReportRepository.firstSnapshot(subjectType: report.subjectType, subjectID: report.subjectID, in: db)
                    ?? subject.snapshot
                let id = try ReportRepository.insert(reporterID: reporterID, report, subjectUserID: subject.userID, snapshot: snapshot,
                                                     now: now, in: db)
                try events.changed(.reportFiled(reportID: id, subjectType: report.subjectType, subjectID: report.subjectID, reason: report.reason),
                                   now: now, in: db)
                var hid = false
                if policy.autoHideReports > 0,
                   try ReportRepository.distinctReporters(subjectType: report.subjectType, subjectID: report.subjectID,
                                                          since: now.addingTimeInterval(-policy.autoHideWindow), in: db) >= policy.autoHideReports,
                   try ReportedContent.hide(report.subjectType, report.subjectID, now: now, in: db) {
                    let open = try ReportRepository.openReports(subjectType: report.subjectType, subjectID: report.subjectID, in: db)
                    _ = try ModerationRepository.insertAction(
                        moderatorID: nil, action: .autoHide, subjectType: report.subjectType, subjectID: report.subjectID,
                        reason: "\(policy.autoHideReports) members reported it within \(Int(policy.autoHideWindow / 3_600)) hours",
                        reportIDs: open.map(\.id), until: nil, now: now, in: db)
                    try events.changed(.contentHidden(subjectType: report.subjectType, subjectID: report.subjectID, automatically: true), now: now, in: db)
                    hid = true
                }
                guard let created = try ReportRepository.find(id: id, in: db) else { throw ReportService.vanished(id) }
                return ReportFiling(report: created, created: true, hidSubject: hid)
            }
        }
    }

    /// The member's own reports, newest first, with their outcome.
    /// - Throws: `DomainError` for a bad limit or cursor.
    public func reports(of reporterID: Int64, limit: Int = 50, cursor: String? = nil) throws -> Page<Report> {
        let limit = try validatedLimit(limit)
        let before = try cursor.map { try Cursor.decode($0, list: "reports").id } ?? Int64.max
        let rows = try domainCall { try pool.read { try ReportRepository.reports(reporterID: reporterID, beforeID: before, limit: limit + 1, in: $0) } }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(list: "reports", key: 0, id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// `id` checked for its subject type: a positive decimal id for meetups and members, a
    /// slug (letters, digits, `-`, `_`; 22–64) for share pages, either for a meetup's page.
    static func checkedSubjectID(_ type: ReportSubjectType, _ id: String) throws -> String {
        let text = id.trimmingCharacters(in: .whitespaces)
        switch type {
        case .meetupPage where isSlug(text):
            return text
        case .meetup, .meetupPage, .member:
            guard let number = Int64(text), number > 0 else {
                let also = type == .meetupPage ? ", or the slug at the end of its link, /m/{slug}" : ""
                throw DomainError.invalid("subject_id", "A \(type.rawValue)'s subject_id is its id, a positive whole number\(also) (got \(text.prefix(80).debugDescription))")
            }
            return String(number)
        case .sharePage:
            guard isSlug(text) else {
                throw DomainError.invalid("subject_id", "A share page's subject_id is the slug at the end of its link, /s/{slug} (got \(text.prefix(80).debugDescription))")
            }
            return text
        }
    }

    /// `id` checked, and the one form a subject is kept under: a meetup's page reported by its
    /// slug (what a reader of `/m/{slug}` has) is kept under its meetup's id, as when reported
    /// by the id, so that both land on one subject in the queue (its slug never changes).
    /// - Throws: `DomainError` `invalid_input` (`subject_id`), `meetup_not_found` (no page has the slug).
    static func canonicalSubjectID(_ type: ReportSubjectType, _ id: String, in pool: any DatabaseStore) throws -> String {
        let checked = try checkedSubjectID(type, id)
        guard type == .meetupPage, isSlug(checked) else { return checked }
        let meetupID = try domainCall { try pool.read { try MeetupPageRepository.meetup(slug: checked, in: $0)?.id } }
        guard let meetupID else {
            throw DomainError(.meetupNotFound, "No meetup page has the link /m/\(checked); check the link", field: "subject_id")
        }
        return String(meetupID)
    }

    /// A slug's shape (22–64 letters, digits, `-` and `_`): never a decimal id, which has at most 19 digits.
    private static func isSlug(_ text: String) -> Bool {
        (22...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// A report not found right after it was written in the same transaction: a defect of
    /// Belay's, answered like a failed store rather than a refusal of the member's input.
    private static func vanished(_ id: Int64) -> DatabaseError {
        .misuse("report \(id) was not found right after it was written")
    }
}
