import BelayStorage
import Foundation

/// SQL for attendances.
enum AttendanceRepository {
    static let columns = """
        a.id, a.meetup_id, a.member_id, a.status, a.joined_at, a.updated_at, a.checked_in_at, a.check_in_method,
        a.checked_in_by,
        CASE WHEN a.status = 'waitlisted' THEN
            (SELECT count(*) FROM attendances w WHERE w.meetup_id = a.meetup_id AND w.status = 'waitlisted'
                                                  AND w.queue_position <= a.queue_position)
        END AS waitlist_position,
        CASE WHEN a.status = 'waitlisted' THEN a.offer_expires_at END AS offer_expires_at
        """

    static func decode(_ row: Row) throws -> Attendance {
        Attendance(id: try row.get("id"), meetupID: try row.get("meetup_id"), memberID: try row.get("member_id"),
                   status: try row.get("status"), waitlistPosition: try row.get("waitlist_position"),
                   joinedAt: try row.get("joined_at"), updatedAt: try row.get("updated_at"),
                   checkedInAt: try row.get("checked_in_at"), checkInMethod: try row.get("check_in_method"),
                   checkedInBy: try row.get("checked_in_by"), offerExpiresAt: try row.get("offer_expires_at"))
    }

    /// The member's attendance at the meetup with the meetup's essentials, for a check-in (a
    /// locked write), in one statement sent for later (see `Database.queryLater`): on
    /// PostgreSQL the attendance's row and the member's are locked until the commit, so one
    /// member's check-ins, here or at other meetups, take turns and count each other (check-in
    /// numbers, milestones, wrong attempts), and statements sent after it run once the locks
    /// are held. Nil when the member has not joined (or the meetup does not exist).
    static func findLockingForCheckIn(meetupID: Int64, memberID: Int64,
                                      in db: Database) throws -> DatabaseAnswer<(attendance: Attendance, meetup: MeetupRepository.Essentials)?> {
        try db.queryLater("""
            SELECT \(columns), \(MeetupRepository.essentialsColumns)
            FROM attendances a JOIN users u ON u.id = a.member_id JOIN meetups m ON m.id = a.meetup_id
            WHERE a.meetup_id = ? AND a.member_id = ?\(db.dialect.lockingRows(of: "a, u"))
            """, [meetupID, memberID]) { (attendance: try decode($0), meetup: try MeetupRepository.decodeEssentials($0)) }
            .map(\.first)
    }

    static func find(meetupID: Int64, memberID: Int64, in db: Database) throws -> Attendance? {
        try db.queryOne("SELECT \(columns) FROM attendances a WHERE a.meetup_id = ? AND a.member_id = ?",
                        [meetupID, memberID], decode)
    }

    /// Whether the member has joined (in any status) a meetup the host hosts or co-hosts.
    static func attends(memberID: Int64, meetupHostedBy hostID: Int64, in db: Database) throws -> Bool {
        try db.queryOne("""
            SELECT 1 FROM attendances a JOIN meetups m ON m.id = a.meetup_id
            WHERE a.member_id = ?1 AND \(MeetupHostRepository.hostedBy("?2")) LIMIT 1
            """, [memberID, hostID]) { _ in true } ?? false
    }

    static func find(id: Int64, in db: Database) throws -> Attendance? {
        try db.queryOne("SELECT \(columns) FROM attendances a WHERE a.id = ?", [id], decode)
    }

    /// Places taken (`going` + `checked_in`) and members waiting, from the counters the
    /// attendance triggers keep on the meetup row.
    static func counts(meetupID: Int64, in db: Database) throws -> (taken: Int, waiting: Int) {
        try db.queryOne("SELECT going_count, waitlist_count FROM meetups WHERE id = ?", [meetupID]) {
            (try $0.get("going_count", as: Int.self), try $0.get("waitlist_count", as: Int.self))
        } ?? (0, 0)
    }

    static func nextQueuePosition(meetupID: Int64, in db: Database) throws -> Int64 {
        (try db.scalar("SELECT max(queue_position) FROM attendances WHERE meetup_id = ?", [meetupID], as: Int64?.self) ?? nil).map { $0 + 1 } ?? 1
    }

    static func insert(meetupID: Int64, memberID: Int64, status: AttendanceStatus, queuePosition: Int64,
                       at now: Date, in db: Database) throws -> Int64 {
        return try db.insertReturningID("""
            INSERT INTO attendances (meetup_id, member_id, status, queue_position, joined_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """, [meetupID, memberID, status.rawValue, queuePosition, now, now])
    }

    static func rejoin(id: Int64, status: AttendanceStatus, queuePosition: Int64, at now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE attendances SET status = ?, queue_position = ?, joined_at = ?, updated_at = ?,
                                   checked_in_at = NULL, check_in_method = NULL, checked_in_by = NULL, offer_expires_at = NULL
            WHERE id = ?
            """, [status.rawValue, queuePosition, now, now, id])
    }

    static func setStatus(_ status: AttendanceStatus, id: Int64, at now: Date, in db: Database) throws {
        try db.execute("UPDATE attendances SET status = ?, updated_at = ?, offer_expires_at = NULL WHERE id = ?", [status.rawValue, now, id])
    }

    /// What a check-in of the member at the meetup needs besides the attendance, read together:
    /// how many check-ins the member has elsewhere, the award context and the member's wrong
    /// codes at the meetup. Sent for later, after the member's lock (`findLockingForCheckIn`),
    /// so that concurrent check-ins of one member count each other.
    static func checkInStanding(meetupID: Int64, memberID: Int64, in db: Database) throws
        -> DatabaseAnswer<(checkedInElsewhere: Int, awardContext: RewardRepository.AwardContext, wrongCodes: CheckInRepository.WrongCodes?)?> {
        try db.queryLater("""
            SELECT (SELECT count(*) FROM attendances other
                    WHERE other.member_id = ?2 AND other.status = 'checked_in' AND other.meetup_id <> ?1) AS checked_in_elsewhere,
                   \(RewardRepository.awardContextColumns(attendanceID: "(SELECT a.id FROM attendances a WHERE a.meetup_id = ?1 AND a.member_id = ?2)")),
                   \(CheckInRepository.wrongCodesColumns(meetupID: "?1", memberID: "?2"))
            """, [meetupID, memberID]) {
            (checkedInElsewhere: try $0.get("checked_in_elsewhere", as: Int.self), awardContext: try RewardRepository.decodeAwardContext($0),
             wrongCodes: try CheckInRepository.decodeWrongCodes($0))
        }.map(\.first)
    }

    /// Checks `attendance` in as check-in number `number` of its member, sent to travel with the
    /// check-in's next change (see `Database.executeWithNextChange`: the reward, the render job
    /// and the webhook event read nothing of the attendance row).
    /// - Returns: the attendance as it reads once written.
    static func markCheckedIn(_ attendance: Attendance, number: Int, at instant: Date, method: CheckInMethod, by actorID: Int64?,
                              now: Date, in db: Database) throws -> Attendance {
        // A checked-in attendance has no waitlist position and no offer.
        try db.executeWithNextChange("""
            UPDATE attendances SET status = 'checked_in', checked_in_at = ?, check_in_method = ?, checked_in_by = ?,
                                   updated_at = ?, check_in_number = ?
            WHERE id = ?
            """, [instant, method.rawValue, actorID, now, number, attendance.id])
        // As stored: to the millisecond.
        return Attendance(id: attendance.id, meetupID: attendance.meetupID, memberID: attendance.memberID, status: .checkedIn,
                          waitlistPosition: nil, joinedAt: attendance.joinedAt,
                          updatedAt: Date(millisecondsSince1970: now.millisecondsSince1970),
                          checkedInAt: Date(millisecondsSince1970: instant.millisecondsSince1970),
                          checkInMethod: method, checkedInBy: actorID, offerExpiresAt: nil)
    }

    static func undoCheckIn(id: Int64, at now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE attendances SET status = 'going', checked_in_at = NULL, check_in_method = NULL, checked_in_by = NULL,
                                   check_in_number = NULL, updated_at = ?
            WHERE id = ?
            """, [now, id])
    }

    /// Cancels every `going` or `waitlisted` attendance of a meetup.
    /// Ends the attendances of those going to and waiting for a meetup.
    /// - Returns: the members whose attendance it ended.
    static func cancelOpen(meetupID: Int64, at now: Date, in db: Database) throws -> [Int64] {
        try db.query("""
            UPDATE attendances SET status = 'cancelled', updated_at = ?
            WHERE meetup_id = ? AND status IN ('going', 'waitlisted')
            RETURNING member_id
            """, [now, meetupID]) { try $0.get("member_id", as: Int64.self) }
    }

    static func attendees(meetupID: Int64, status: AttendanceStatus?, afterPosition: Int64, limit: Int,
                          in db: Database) throws -> [(position: Int64, attendee: Attendee)] {
        try db.query("""
            SELECT \(columns), a.queue_position, u.handle, u.display_name,
                   CASE WHEN \(SafetyRepository.blockedByRunnersSQL(member: "a.member_id")) THEN 1 ELSE 0 END AS blocked_by_host
            FROM attendances a JOIN users u ON u.id = a.member_id JOIN meetups m ON m.id = a.meetup_id
            WHERE a.meetup_id = ?1 AND (?2 IS NULL OR a.status = ?2) AND a.queue_position > ?3
            ORDER BY a.queue_position LIMIT ?4
            """, [meetupID, status?.rawValue, afterPosition, limit]) { row in
            (try row.get("queue_position"), Attendee(attendance: try decode(row), handle: try row.get("handle"),
                                                     displayName: try row.get("display_name"), blockedByHost: try row.get("blocked_by_host")))
        }
    }

    static func attendances(memberID: Int64, beforeID: Int64, limit: Int, in db: Database) throws -> [Attendance] {
        try db.query("""
            SELECT \(columns) FROM attendances a WHERE a.member_id = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?
            """, [memberID, beforeID, limit], decode)
    }

    /// A member's record: meetups joined and not left (going, waitlisted or checked in),
    /// check-ins, and places held at completed meetups without checking in.
    static func record(memberID: Int64, in db: Database) throws -> (joined: Int, checkedIn: Int, noShows: Int) {
        try db.queryOne("""
            SELECT COALESCE(SUM(CASE WHEN a.status <> 'cancelled' THEN 1 ELSE 0 END), 0) AS joined,
                   COALESCE(SUM(CASE WHEN a.status = 'checked_in' THEN 1 ELSE 0 END), 0) AS checked_in,
                   COALESCE(SUM(CASE WHEN a.status = 'going' AND m.status = 'completed' THEN 1 ELSE 0 END), 0) AS no_shows
            FROM attendances a JOIN meetups m ON m.id = a.meetup_id
            WHERE a.member_id = ?
            """, [memberID]) {
            (try $0.get("joined", as: Int.self), try $0.get("checked_in", as: Int.self), try $0.get("no_shows", as: Int.self))
        } ?? (0, 0, 0)
    }

    /// When the member's checked-in attendances before this one (in check-in order, ties
    /// broken by id) were checked in.
    static func checkInTimes(memberID: Int64, before checkedInAt: Date, attendanceID: Int64, in db: Database) throws -> [Date] {
        try db.query("""
            SELECT checked_in_at FROM attendances
            WHERE member_id = ?1 AND status = 'checked_in' AND (checked_in_at, id) < (?2, ?3)
            """, [memberID, checkedInAt, attendanceID]) { try $0.get("checked_in_at") }
    }
}
