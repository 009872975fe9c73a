import BelayCore
import BelayStorage
import Foundation

/// Personal calendar feeds: each member's revocable feed token, and the meetups a feed shows.
///
/// A token is `<member id>-<base64url HMAC-SHA256("member:generation")>` under a secret made
/// once per database, so it is checked without storing it, and revoking (bumping the
/// generation) makes every earlier token of that member fail at once.
public final class CalendarService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    /// How far back a feed reaches: meetups that ended longer ago are left out.
    public static let pastDays = 90
    /// The most meetups a feed holds, unless told otherwise: beyond it, the past meetups that
    /// ended longest ago are left out first, then the upcoming ones furthest away.
    public static let feedLimit = 500
    /// The most meetups this service's feeds hold.
    public let feedLimit: Int

    /// - Parameter feedLimit: the most meetups one feed holds (at least 1).
    public init(pool: any DatabaseStore, clock: any TimeSource, feedLimit: Int = CalendarService.feedLimit) {
        self.pool = pool
        self.clock = clock
        self.feedLimit = max(1, feedLimit)
    }

    /// The member's current feed token.
    /// - Throws: `DomainError.storageFailure` (the migration that makes the secret is missing).
    public func feedToken(memberID: Int64) throws -> String {
        try domainCall {
            try pool.read { db in
                Self.token(memberID: memberID, generation: try CalendarRepository.generation(userID: memberID, in: db),
                           secret: try Self.secret(in: db))
            }
        }
    }

    /// Revokes the member's feed URL and returns the new token; the old one stops working.
    /// - Throws: `DomainError`: `not_permitted` (another member's feed, unless an admin),
    ///   `user_not_found`.
    public func revokeFeedToken(memberID: Int64, by actor: Actor) throws -> String {
        guard actor.userID == memberID || actor.isAdmin else {
            throw DomainError(.notPermitted, "Only the member themselves or an admin revokes a calendar feed")
        }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard try UserRepository.find(id: memberID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No user has id \(memberID)")
                }
                let generation = try CalendarRepository.bumpGeneration(userID: memberID, now: now, in: db)
                return Self.token(memberID: memberID, generation: generation, secret: try Self.secret(in: db))
            }
        }
    }

    /// Replaces the secret every feed token is made with: every member's feed URL changes at
    /// once (after a backup holding the old secret went astray). Members get their new URL
    /// from `GET /v1/me` and subscribe again.
    /// - Throws: `DomainError.storageFailure`.
    public func rotateSecret() throws {
        let secret = Crypto.randomBytes(32)
        try domainCall { try pool.write { try CalendarRepository.replaceSecret(with: secret, in: $0) } }
    }

    /// The member a feed token belongs to, or nil for a token that is malformed, forged or revoked.
    public func member(forFeedToken token: String) throws -> Int64? {
        guard let dash = token.firstIndex(of: "-"), let memberID = Int64(token[..<dash]), memberID > 0 else { return nil }
        return try domainCall {
            try pool.read { db in
                let expected = Self.token(memberID: memberID, generation: try CalendarRepository.generation(userID: memberID, in: db),
                                          secret: try Self.secret(in: db))
                return Self.constantTimeEqual(Array(expected.utf8), Array(token.utf8)) ? memberID : nil
            }
        }
    }

    /// The meetups of a member's feed, soonest first: the member's meetups that ended at most
    /// `pastDays` ago, at most `feedLimit` of them (upcoming ones kept first).
    public func feed(memberID: Int64) throws -> [CalendarEntry] {
        let now = clock.now()
        return try domainCall {
            try pool.read { db in
                try feedRows(memberID: memberID, now: now, in: db).compactMap { row in
                    try MeetupRepository.find(id: row.meetupID, in: db).map {
                        CalendarEntry(meetup: $0, sequence: row.sequence, attendanceStatus: row.status)
                    }
                }
            }
        }
    }

    /// What the member's feed would show, without reading its meetups: one small query, so a
    /// feed's ETag is known before (and without) building it. Equal to
    /// `CalendarFeedVersion(entries: feed(memberID:))` read at the same moment.
    public func feedVersion(memberID: Int64) throws -> CalendarFeedVersion {
        let now = clock.now()
        return try domainCall {
            try pool.read { db in
                CalendarFeedVersion(items: try feedRows(memberID: memberID, now: now, in: db).map {
                    CalendarFeedVersion.Item(meetupID: $0.meetupID, sequence: $0.sequence, updatedAt: $0.updatedAt,
                                             attendanceStatus: $0.status)
                })
            }
        }
    }

    /// The feed's rows, soonest first.
    private func feedRows(memberID: Int64, now: Date, in db: Database) throws
        -> [(meetupID: Int64, sequence: Int, updatedAt: Date, status: AttendanceStatus, startsAt: Date)] {
        let since = now.addingTimeInterval(-Double(Self.pastDays) * 86_400)
        let rows = try CalendarRepository.memberMeetups(memberID: memberID, endingAfter: since, now: now, limit: feedLimit, in: db)
        return rows.sorted { ($0.startsAt, $0.meetupID) < ($1.startsAt, $1.meetupID) }
    }

    /// One meetup as a calendar entry for `actor`: a meetup they may not see (private, hidden,
    /// or run by someone blocked either way; see `MeetupService.maySee`) answers as an unknown id,
    /// as `GET /v1/meetups/{id}` does.
    /// - Throws: `DomainError.meetupNotFound`.
    public func entry(meetupID: Int64, seenBy actor: Actor) throws -> CalendarEntry {
        try domainCall {
            try pool.read { db in
                guard let meetup = try MeetupRepository.find(id: meetupID, in: db), try MeetupService.maySee(meetup, actor, in: db),
                      let sequence = try CalendarRepository.sequence(meetupID: meetupID, in: db) else {
                    throw MeetupService.notFound(meetupID)
                }
                return CalendarEntry(meetup: meetup, sequence: sequence, attendanceStatus: nil)
            }
        }
    }

    /// One meetup as a calendar entry for its public page (`/m/{slug}.ics`), whose route has
    /// already decided the page may be shown.
    /// - Throws: `DomainError.meetupNotFound`.
    public func entry(meetupID: Int64) throws -> CalendarEntry {
        try domainCall {
            try pool.read { db in
                guard let meetup = try MeetupRepository.find(id: meetupID, in: db),
                      let sequence = try CalendarRepository.sequence(meetupID: meetupID, in: db) else {
                    throw MeetupService.notFound(meetupID)
                }
                return CalendarEntry(meetup: meetup, sequence: sequence, attendanceStatus: nil)
            }
        }
    }

    private static func secret(in db: Database) throws -> [UInt8] {
        guard let secret = try CalendarRepository.secret(in: db) else {
            throw DomainError(.storageFailure, "The calendar feed secret is missing; run `belay migrate`")
        }
        return secret
    }

    static func token(memberID: Int64, generation: Int, secret: [UInt8]) -> String {
        let mac = Crypto.hmacSHA256(key: secret, message: Array("\(memberID):\(generation)".utf8))
        return "\(memberID)-" + Crypto.base64URL(Array(mac.prefix(24)))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
