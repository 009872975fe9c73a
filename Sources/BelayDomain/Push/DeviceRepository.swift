import BelayStorage
import Foundation

/// SQL for registered devices and the kinds of notice members switched off.
enum DeviceRepository {
    static let columns = "id, user_id, session_id, platform, token, app_id, environment, locale, created_at, updated_at"

    static func decode(_ row: Row) throws -> Device {
        Device(id: try row.get("id"), userID: try row.get("user_id"), sessionID: try row.get("session_id"),
               platform: try row.get("platform"), token: try row.get("token"), appID: try row.get("app_id"),
               environment: try row.get("environment"), locale: try row.get("locale"),
               createdAt: try row.get("created_at"), updatedAt: try row.get("updated_at"))
    }

    /// A device to tell and the language to tell it in (the device's, else the member's).
    struct Recipient {
        let id: Int64
        let locale: MemberLocale?
    }

    /// The most members named in one statement of `recipients`.
    static let membersPerStatement = 500

    /// The devices of `recipients` that want `kind`: the member is not deleted, the session
    /// that registered the device is live, and the member has not switched `kind` off.
    static func recipients(_ recipients: PushNoticeWriter.Recipients, kind: NoticeKind, platforms: Set<DevicePlatform>, now: Date,
                           in db: Database) throws -> [Recipient] {
        let members: String
        var arguments: [any DatabaseValueConvertible]
        switch recipients {
        case let .member(id):
            members = "d.user_id = ?"
            arguments = [id]
        case let .members(ids):
            guard !ids.isEmpty else { return [] }
            // A bound parameter per member, a few hundred to a statement (engines cap how many
            // one takes); the devices come in the order one statement would give.
            if ids.count > membersPerStatement {
                return try stride(from: 0, to: ids.count, by: membersPerStatement).flatMap { start in
                    try self.recipients(.members(Array(ids[start..<min(start + membersPerStatement, ids.count)])), kind: kind,
                                        platforms: platforms, now: now, in: db)
                }.sorted { $0.id < $1.id }
            }
            members = "d.user_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))"
            arguments = ids
        case let .attendeesOf(meetupID, statuses):
            members = "d.user_id IN (SELECT member_id FROM attendances WHERE meetup_id = ? AND status IN (\(statuses)))"
            arguments = [meetupID]
        }
        arguments.append(now)
        // A kind a member cannot switch goes whatever a row says (one written before it was fixed).
        let choice: String
        if kind.isSwitchable {
            choice = """
                AND \(kind.isOnByDefault ? "NOT EXISTS" : "EXISTS") (SELECT 1 FROM notification_settings n
                     WHERE n.user_id = d.user_id AND n.kind = ? AND n.enabled = \(kind.isOnByDefault ? 0 : 1))
                """
            arguments.append(kind.rawValue)
        } else {
            choice = ""
        }
        // Platform names are Belay's own constants, never input.
        let platformList = platforms.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        return try db.query("""
            SELECT d.id, COALESCE(d.locale, u.locale) AS locale FROM devices d
            JOIN users u ON u.id = d.user_id
            LEFT JOIN sessions s ON s.id = d.session_id
            WHERE \(members) AND u.deleted_at IS NULL AND d.platform IN (\(platformList))
              AND (d.session_id IS NULL OR (s.ended_at IS NULL AND s.expires_at > ?))
              \(choice)
            ORDER BY d.id
            """, arguments) { Recipient(id: try $0.get("id"), locale: try $0.get("locale")) }
    }

    static func find(platform: DevicePlatform, token: String, in db: Database) throws -> Device? {
        try db.queryOne("SELECT \(columns) FROM devices WHERE platform = ? AND token = ?", [platform.rawValue, token], decode)
    }

    static func find(id: Int64, in db: Database) throws -> Device? {
        try db.queryOne("SELECT \(columns) FROM devices WHERE id = ?", [id], decode)
    }

    /// Registers `registration` for the member, or moves an existing token to them.
    static func upsert(_ registration: DeviceRegistration, userID: Int64, sessionID: Int64?, now: Date, in db: Database) throws -> Int64 {
        try db.insertReturningID("""
            INSERT INTO devices (user_id, session_id, platform, token, app_id, environment, locale, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (platform, token) DO UPDATE SET user_id = excluded.user_id, session_id = excluded.session_id,
                app_id = excluded.app_id, environment = excluded.environment, locale = excluded.locale, updated_at = excluded.updated_at
            RETURNING id
            """, [userID, sessionID, registration.platform.rawValue, registration.token, registration.appID,
                  registration.environment.rawValue, registration.locale?.rawValue, now, now])
    }

    static func list(userID: Int64, in db: Database) throws -> [Device] {
        try db.query("SELECT \(columns) FROM devices WHERE user_id = ? ORDER BY id", [userID], decode)
    }

    /// Drops the notices still waiting for a device (it is going, or changing hands).
    static func dropPendingNotices(deviceID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM push_notices WHERE device_id = ? AND status = 'pending'", [deviceID])
    }

    /// Removes a device and the notices still waiting for it; returns whether it was there.
    @discardableResult
    static func delete(id: Int64, in db: Database) throws -> Bool {
        try dropPendingNotices(deviceID: id, in: db)
        return try db.queryOne("DELETE FROM devices WHERE id = ? RETURNING id", [id]) { try $0.get("id", as: Int64.self) } != nil
    }

    /// Removes a device the push service says is unregistered, unless it was registered (or
    /// registered again) at or after `instant`, the last time the service knew its token
    /// valid; nil removes it whatever its registration. False when it was kept, or gone already.
    static func delete(id: Int64, registeredBefore instant: Date?, in db: Database) throws -> Bool {
        guard let instant else { return try delete(id: id, in: db) }
        guard try db.queryOne("SELECT id FROM devices WHERE id = ? AND updated_at < ?", [id, instant], { try $0.get("id", as: Int64.self) }) != nil else {
            return false
        }
        return try delete(id: id, in: db)
    }

    /// Removes the devices a session registered (signing out).
    static func deleteAll(sessionID: Int64, in db: Database) throws {
        try db.execute("""
            DELETE FROM push_notices WHERE status = 'pending' AND device_id IN (SELECT id FROM devices WHERE session_id = ?)
            """, [sessionID])
        try db.execute("DELETE FROM devices WHERE session_id = ?", [sessionID])
    }

    /// Removes every device and notice setting of a member (deleting the account).
    static func deleteAll(userID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM push_notices WHERE device_id IN (SELECT id FROM devices WHERE user_id = ?)", [userID])
        try db.execute("DELETE FROM devices WHERE user_id = ?", [userID])
        try db.execute("DELETE FROM notification_settings WHERE user_id = ?", [userID])
    }

    /// What the member chose for each kind they switched, by the kind's name (a row of a kind
    /// this build does not send, written by a newer Belay, is read and changes nothing).
    static func choices(userID: Int64, in db: Database) throws -> [String: Bool] {
        var choices: [String: Bool] = [:]
        for (name, enabled) in try db.query("SELECT kind, enabled FROM notification_settings WHERE user_id = ?", [userID], {
            (try $0.get("kind", as: String.self), try $0.get("enabled", as: Int64.self) == 1)
        }) {
            choices[name] = enabled
        }
        return choices
    }

    static func setEnabled(_ enabled: Bool, kind: NoticeKind, userID: Int64, in db: Database) throws {
        try db.execute("""
            INSERT INTO notification_settings (user_id, kind, enabled) VALUES (?, ?, ?)
            ON CONFLICT (user_id, kind) DO UPDATE SET enabled = excluded.enabled
            """, [userID, kind.rawValue, enabled ? 1 : 0])
    }
}
