import BelayStorage
import Foundation

/// SQL for reports. The reporter's id is written and used for the one-open-report rule and
/// the rate limit, and never read back into anything the subject or the moderators see.
enum ReportRepository {
    static let columns = "r.id, r.subject_type, r.subject_id, r.reason, r.note, r.status, r.outcome, r.created_at, r.updated_at, r.resolved_at"

    static func decode(_ row: Row) throws -> Report {
        let outcome: String? = try row.get("outcome")
        return Report(id: try row.get("id"), subjectType: try enumeration(row, "subject_type"), subjectID: try row.get("subject_id"),
                      reason: try enumeration(row, "reason"), note: try row.get("note"), status: try enumeration(row, "status"),
                      outcome: outcome.flatMap(ModerationActionKind.init(rawValue:)), createdAt: try row.get("created_at"),
                      updatedAt: try row.get("updated_at"), resolvedAt: try row.get("resolved_at"))
    }

    private static func enumeration<T: RawRepresentable>(_ row: Row, _ column: String) throws -> T where T.RawValue == String {
        let text: String = try row.get(column)
        guard let value = T(rawValue: text) else {
            throw DomainError(.invalidInput, "The stored \(column) \(text.debugDescription) is not one Belay knows; update Belay")
        }
        return value
    }

    static func find(id: Int64, in db: Database) throws -> Report? {
        try db.queryOne("SELECT \(columns) FROM reports r WHERE r.id = ?", [id], decode)
    }

    /// The reporter's open report of the subject, if any.
    static func openReport(reporterID: Int64, subjectType: ReportSubjectType, subjectID: String, in db: Database) throws -> Report? {
        try db.queryOne("""
            SELECT \(columns) FROM reports r WHERE r.reporter_id = ? AND r.subject_type = ? AND r.subject_id = ? AND r.status = 'open'
            """, [reporterID, subjectType.rawValue, subjectID], decode)
    }

    static func insert(reporterID: Int64, _ report: NewReport, subjectUserID: Int64?, snapshot: String, now: Date, in db: Database) throws -> Int64 {
        try db.insertReturningID("""
            INSERT INTO reports (reporter_id, subject_type, subject_id, subject_user_id, reason, note, snapshot, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id
            """, [reporterID, report.subjectType.rawValue, report.subjectID, subjectUserID, report.reason.rawValue, report.note,
                  snapshot, now, now])
    }

    static func update(id: Int64, reason: ReportReason, note: String, now: Date, in db: Database) throws {
        try db.execute("UPDATE reports SET reason = ?, note = ?, updated_at = ? WHERE id = ?", [reason.rawValue, note, now, id])
    }

    /// The snapshot of the subject's first open report, so that every report of it shows the
    /// content as it was before anyone could edit it away.
    static func firstSnapshot(subjectType: ReportSubjectType, subjectID: String, in db: Database) throws -> String? {
        try db.queryOne("""
            SELECT snapshot FROM reports WHERE subject_type = ? AND subject_id = ? AND status = 'open' ORDER BY created_at, id LIMIT 1
            """, [subjectType.rawValue, subjectID]) { try $0.get("snapshot") }
    }

    /// Reports the member filed since `since`, for the daily limit.
    static func count(reporterID: Int64, since: Date, in db: Database) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM reports WHERE reporter_id = ? AND created_at >= ?", [reporterID, since]) {
            try $0.get("n")
        } ?? 0
    }

    /// Distinct members with an open report of the subject filed since `since`.
    static func distinctReporters(subjectType: ReportSubjectType, subjectID: String, since: Date, in db: Database) throws -> Int {
        try db.queryOne("""
            SELECT count(DISTINCT reporter_id) AS n FROM reports
            WHERE subject_type = ? AND subject_id = ? AND status = 'open' AND created_at >= ?
            """, [subjectType.rawValue, subjectID, since]) { try $0.get("n") } ?? 0
    }

    /// The member's reports, newest first, after the cursor's id.
    static func reports(reporterID: Int64, beforeID: Int64, limit: Int, in db: Database) throws -> [Report] {
        try db.query("SELECT \(columns) FROM reports r WHERE r.reporter_id = ? AND r.id < ? ORDER BY r.id DESC LIMIT ?",
                     [reporterID, beforeID, limit], decode)
    }

    /// Open reports of one subject, oldest first.
    static func openReports(subjectType: ReportSubjectType, subjectID: String, in db: Database) throws -> [Report] {
        try db.query("""
            SELECT \(columns) FROM reports r WHERE r.subject_type = ? AND r.subject_id = ? AND r.status = 'open' ORDER BY r.created_at, r.id
            """, [subjectType.rawValue, subjectID], decode)
    }

    /// The subjects with open reports, the longest waiting first.
    static func openSubjects(limit: Int, in db: Database) throws -> [(type: ReportSubjectType, id: String, userID: Int64?, snapshot: String)] {
        try db.query("""
            SELECT r.subject_type, r.subject_id, min(r.created_at) AS first_at, max(r.subject_user_id) AS subject_user_id,
                   (SELECT f.snapshot FROM reports f WHERE f.subject_type = r.subject_type AND f.subject_id = r.subject_id AND f.status = 'open'
                    ORDER BY f.created_at, f.id LIMIT 1) AS snapshot
            FROM reports r WHERE r.status = 'open'
            GROUP BY r.subject_type, r.subject_id ORDER BY first_at, r.subject_type, r.subject_id LIMIT ?
            """, [limit]) { row in
            (try enumeration(row, "subject_type"), try row.get("subject_id"), try row.get("subject_user_id"), try row.get("snapshot"))
        }
    }

    /// Closes the subject's open reports with `status` and `outcome`.
    /// - Returns: the ids closed.
    static func close(subjectType: ReportSubjectType, subjectID: String, status: ReportStatus, outcome: ModerationActionKind,
                      now: Date, in db: Database) throws -> [Int64] {
        let ids: [Int64] = try db.query("""
            SELECT id FROM reports WHERE subject_type = ? AND subject_id = ? AND status = 'open' ORDER BY id
            """, [subjectType.rawValue, subjectID]) { try $0.get("id") }
        guard !ids.isEmpty else { return [] }
        try db.execute("""
            UPDATE reports SET status = ?, outcome = ?, resolved_at = ?, updated_at = ? WHERE subject_type = ? AND subject_id = ? AND status = 'open'
            """, [status.rawValue, outcome.rawValue, now, now, subjectType.rawValue, subjectID])
        return ids
    }

    /// The reporter of each of the given reports that still has one (to tell them the outcome):
    /// read only for that, never shown.
    static func reporters(of ids: [Int64], in db: Database) throws -> [(reporterID: Int64, reportID: Int64)] {
        guard !ids.isEmpty else { return [] }
        return try db.query("""
            SELECT reporter_id, id FROM reports
            WHERE id IN (SELECT id FROM (\(db.dialect.integerRows(ofJSON: "?1", columns: ["id"]))) AS listed) AND reporter_id IS NOT NULL
            ORDER BY id
            """, ["[" + ids.map { "[\($0)]" }.joined(separator: ",") + "]"]) { (try $0.get("reporter_id"), try $0.get("id")) }
    }

    /// Open reports and the oldest one's filing time, for `/metrics`.
    static func openSummary(in db: Database) throws -> (count: Int, oldest: Date?) {
        try db.queryOne("SELECT count(*) AS n, min(created_at) AS oldest FROM reports WHERE status = 'open'", []) {
            (try $0.get("n"), try $0.get("oldest"))
        } ?? (0, nil)
    }

    /// The deleted member's reports stay for the moderators without who filed them.
    static func forgetReporter(userID: Int64, in db: Database) throws {
        try db.execute("UPDATE reports SET reporter_id = NULL WHERE reporter_id = ?", [userID])
    }
}
