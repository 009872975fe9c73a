import BelayCore
import BelayStorage
import Foundation

/// Finding meetups: who may see a private one, public pages, follows and the feed.
extension MeetupService {
    /// Whether `actor` may see `meetup`. Its host, co-hosts and admins always; a member with an
    /// attendance (going, waiting, or once) always. Anyone else: not a private meetup, not a
    /// hidden one (moderators excepted, to look at it), and not one whose host or a co-host
    /// blocked them or whom they blocked: such a meetup answers as an unknown id.
    static func maySee(_ meetup: Meetup, _ actor: Actor?, in db: Database) throws -> Bool {
        let restricted = meetup.visibility == .private || meetup.hiddenAt != nil
        guard let actor else { return !restricted }
        guard let userID = actor.userID else { return actor.isAdmin || !restricted }
        if try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db) { return true }
        if try db.queryOne("SELECT 1 AS found FROM attendances WHERE meetup_id = ? AND member_id = ?", [meetup.id, userID], { _ in true }) ?? false {
            return true
        }
        if meetup.visibility == .private { return false }
        if meetup.hiddenAt != nil, try !ModerationRepository.isModerator(userID: userID, in: db) { return false }
        return try !SafetyRepository.keptApart(memberID: userID, meetupID: meetup.id, hostID: meetup.hostID, bans: false, in: db)
    }

    /// The meetup if `actor` may see it (see `maySee`: a private or hidden meetup, or one of a
    /// host blocked either way, answers as an unknown id).
    /// - Throws: `DomainError.meetupNotFound`.
    public func meetup(id: Int64, seenBy actor: Actor) throws -> Meetup {
        try domainCall {
            try pool.read { db in
                let meetup = try Self.require(id, in: db)
                guard try Self.maySee(meetup, actor, in: db) else { throw Self.notFound(id) }
                return meetup
            }
        }
    }

    /// Publishes the meetup's public page, `/m/{slug}` (128 random bits; the same slug again
    /// after unpublishing), naming its host only when `showsHost`.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (its host, co-hosts or an
    ///   admin), `invalid_input` (`visibility`: a private meetup has no public page).
    public func publishPage(meetupID: Int64, showsHost: Bool, by actor: Actor) throws -> Meetup {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let meetup = try Self.require(meetupID, in: db)
                try Self.requireManager(of: meetup, actor, in: db)
                guard meetup.visibility == .public else {
                    throw DomainError.invalid("visibility", "Meetup \(meetupID) is private; a private meetup has no public page. Make it public first")
                }
                try MeetupPageRepository.publish(meetupID: meetupID, slug: Crypto.base64URL(Crypto.randomBytes(16)), showsHost: showsHost,
                                                 at: now, in: db)
                try events.changed(.meetupPageChanged(meetupID: meetupID), now: now, in: db)
                return try Self.require(meetupID, in: db)
            }
        }
    }

    /// Takes the public page down: its address answers 410 from then on. Twice is harmless.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`.
    public func unpublishPage(meetupID: Int64, by actor: Actor) throws -> Meetup {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let meetup = try Self.require(meetupID, in: db)
                try Self.requireManager(of: meetup, actor, in: db)
                if meetup.page?.isPublished == true {
                    try MeetupPageRepository.unpublish(meetupID: meetupID, in: db)
                    try events.changed(.meetupPageChanged(meetupID: meetupID), now: now, in: db)
                }
                return try Self.require(meetupID, in: db)
            }
        }
    }

    /// What `/m/{slug}` shows.
    public enum PublicPage: Sendable {
        /// The meetup, and its host's display name when the page shows it.
        case published(Meetup, hostName: String?)
        /// Unpublished, hidden by the moderators, or made private: 410.
        case gone
        case notFound
    }

    /// The meetup behind a public page's slug.
    public func publicPage(slug: String) throws -> PublicPage {
        try domainCall {
            try pool.read { db in
                guard let meetup = try MeetupPageRepository.meetup(slug: slug, in: db) else { return .notFound }
                guard let page = meetup.page, page.isPublished, meetup.visibility == .public, meetup.hiddenAt == nil else { return .gone }
                let hostName = page.showsHost
                    ? try db.queryOne("SELECT display_name FROM users WHERE id = ? AND deleted_at IS NULL", [meetup.hostID]) { try $0.get("display_name", as: String.self) }
                    : nil
                return .published(meetup, hostName: hostName)
            }
        }
    }

    // MARK: Follows

    /// Follows a gym or a host (twice is harmless).
    /// - Throws: `DomainError`: `gym_not_found`, `user_not_found`, `not_permitted` (a host
    ///   blocked either way, in words that say nothing of the block), `invalid_input` (oneself).
    public func follow(_ subject: FollowSubject, by actor: Actor) throws -> [Follow] {
        guard let userID = actor.userID else { throw DomainError(.notPermitted, "Only members follow gyms and hosts") }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                switch subject {
                case let .gym(id): _ = try GymService.require(id, in: db)
                case let .host(id):
                    guard id != userID else { throw DomainError.invalid("user_id", "A member does not follow themselves") }
                    let known = try db.queryOne("SELECT 1 AS found FROM users WHERE id = ? AND deleted_at IS NULL", [id]) { _ in true } ?? false
                    guard known else { throw DomainError(.userNotFound, "No host \(id) to follow", field: "user_id") }
                    // A block either way: refused in the words a join is refused in, saying nothing of it.
                    if try SafetyRepository.blocked(between: userID, and: id, in: db) {
                        throw DomainError(.notPermitted, "You cannot follow host \(id); look for other hosts")
                    }
                }
                try FollowRepository.follow(userID: userID, subject, at: now, in: db)
                return try FollowRepository.follows(userID: userID, in: db)
            }
        }
    }

    /// Stops following (harmless when not following).
    public func unfollow(_ subject: FollowSubject, by actor: Actor) throws -> [Follow] {
        guard let userID = actor.userID else { throw DomainError(.notPermitted, "Only members follow gyms and hosts") }
        return try domainCall {
            try pool.write { db in
                try FollowRepository.unfollow(userID: userID, subject, in: db)
                return try FollowRepository.follows(userID: userID, in: db)
            }
        }
    }

    /// What the member follows, oldest first (never a host blocked either way: such a follow
    /// stays stored, silent, and shows again when the block is lifted).
    public func follows(of userID: Int64) throws -> [Follow] {
        try domainCall { try pool.read { db in try FollowRepository.follows(userID: userID, in: db) } }
    }

    /// The member's feed: upcoming public meetups from the gyms and hosts they follow, soonest
    /// first; then, when they gave a location (`near`, remembered for next time) or gave one
    /// before, upcoming meetups within `radiusKilometres` of it. Blocks apply both ways.
    /// - Throws: `DomainError` for a bad limit or cursor.
    public func feed(memberID: Int64, near: GeoPoint?, limit: Int, cursor: String?) throws -> Page<FeedItem> {
        let limit = try validatedLimit(limit, maximum: 100)
        let now = clock.now()
        let position = try cursor.map { try Cursor.decode($0, list: "feed") }
        if let near {
            try domainCall { try pool.write { db in try FollowRepository.setLocation(userID: memberID, near, at: now, in: db) } }
        }
        let rows = try domainCall {
            try pool.read { db -> [(Meetup, FeedReason, Int64)] in
                let location = try near ?? FollowRepository.location(userID: memberID, in: db)
                var nearby = "1 = 0"  // a condition on both engines (PostgreSQL takes no integer as one)
                var values: [any DatabaseValueConvertible] = [memberID, memberID]
                if let location {
                    let box = location.boundingBoxE6(kilometres: MeetupSearch.defaultRadiusKilometres)
                    nearby = "(m.latitude_e6 BETWEEN ? AND ? AND m.longitude_e6 BETWEEN ? AND ?)"
                    values += [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
                }
                let apart = SafetyRepository.keptApartSQL(member: .value(memberID), bans: false)
                // Rank 0: a followed gym; 1: a followed host; 2: near; the key is rank × 10¹⁴ + start.
                let sql = """
                    SELECT * FROM (
                      SELECT \(MeetupRepository.columns),
                             CASE WHEN EXISTS (SELECT 1 FROM follows f WHERE f.user_id = ? AND f.subject_type = 'gym' AND f.subject_id = m.gym_id) THEN 0
                                  WHEN EXISTS (SELECT 1 FROM follows f WHERE f.user_id = ? AND f.subject_type = 'host' AND f.subject_id = m.host_id) THEN 1
                                  WHEN \(nearby) THEN 2 ELSE 3 END AS feed_rank
                      FROM meetups m
                      WHERE m.ends_at > ? AND m.status = 'scheduled' AND m.visibility = 'public' AND m.hidden_at IS NULL AND m.host_id <> ?
                        AND NOT \(apart.sql)
                    ) listed
                    WHERE feed_rank < 3 AND (? IS NULL OR feed_rank * 100000000000000 + starts_at > ? OR (feed_rank * 100000000000000 + starts_at = ? AND id > ?))
                    ORDER BY feed_rank, starts_at, id LIMIT ?
                    """
                values += [now, memberID] + apart.values
                values += [position?.key, position?.key, position?.key, position?.id ?? 0, limit + 1]
                return try db.query(sql, values) { row in
                    let rank: Int64 = try row.get("feed_rank")
                    let reason: FeedReason = rank == 0 ? .followedGym : rank == 1 ? .followedHost : .nearby
                    return (try MeetupRepository.decode(row), reason, rank)
                }
            }
        }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(list: "feed", key: $0.2 * 100_000_000_000_000 + $0.0.startsAt.millisecondsSince1970, id: $0.0.id).encoded } : nil
        return Page(items: page.map { FeedItem(meetup: $0.0, reason: $0.1) }, nextCursor: next)
    }
}
