import BelayCore
import BelayStorage
import Foundation

/// Gyms, their colour circuits and their managers.
///
/// Admins add gyms and name their managers; a gym's managers and admins edit it. Anyone
/// signed in reads them.
public final class GymService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    public init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Adds a gym.
    /// - Throws: `DomainError`: `not_permitted` (admins only), `invalid_input` naming the field.
    public func create(_ draft: GymDraft, by actor: Actor) throws -> Gym {
        guard actor.isAdmin else { throw DomainError(.notPermitted, "Only admins add gyms; ask an admin to add this one and make you its manager") }
        let gym = try ValidatedGym(new: draft)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let id = try GymRepository.insert(gym, now: now, in: db)
                return try Self.require(id, in: db)
            }
        }
    }

    /// Edits a gym: the members the draft gives change, the rest stay.
    /// - Throws: `DomainError`: `gym_not_found`, `not_permitted` (its managers and admins), `invalid_input`.
    public func update(id: Int64, _ draft: GymDraft, by actor: Actor) throws -> Gym {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let current = try Self.require(id, in: db)
                try Self.requireManaged(current.id, by: actor, in: db)
                var gym = ValidatedGym(current)
                try gym.apply(draft)
                try GymRepository.update(id: id, gym, now: now, in: db)
                let updated = try Self.require(id, in: db)
                try MeetupRepository.followGym(id: id, movedFrom: current.location, to: updated.location, at: now, in: db)
                return updated
            }
        }
    }

    /// One gym, each colour level with the range its members' sends span.
    /// - Throws: `DomainError.gymNotFound`.
    public func gym(id: Int64) throws -> Gym {
        try domainCall {
            try pool.read { db in
                var gym = try Self.require(id, in: db)
                for axis in GradeAxis.allCases where !gym.levels(axis).isEmpty {
                    let felt = try TickRepository.feltScoresByLevel(gymID: id, axis: axis, in: db)
                    let levels = gym.levels(axis).map { level -> GymLevel in
                        var level = level
                        let scores = (felt[level.position] ?? []).sorted()
                        level.votes = scores.count
                        if scores.count >= Problem.communityMinimumVotes {
                            level.communityRange = GradeRange(axis: axis, lowest: scores[(scores.count - 1) / 4],
                                                              highest: scores[(scores.count - 1) * 3 / 4])
                        }
                        return level
                    }
                    gym = gym.with(levels: levels, axis: axis)
                }
                return gym
            }
        }
    }

    /// Gyms whose name in any locale contains `text`, or all; nearest first when `near` is
    /// given (then one page of at most `limit`, without a cursor), else in the order they were added.
    /// - Throws: `DomainError`: `invalid_cursor`, `invalid_input` (`limit`).
    public func list(matching text: String?, near: (latitude: Double, longitude: Double)?, limit: Int, cursor: String?) throws -> Page<Gym> {
        let limit = try validatedLimit(limit, maximum: 100)
        let query = text?.trimmingCharacters(in: .whitespaces)
        let search = (query?.isEmpty ?? true) ? nil : query
        if let near {
            let all = try domainCall { try pool.read { db in try GymRepository.list(matching: search, afterID: 0, limit: 100_000, in: db) } }
            let sorted = all.filter { $0.latitude != nil }.sorted {
                Self.distanceKilometres(from: near, to: $0) < Self.distanceKilometres(from: near, to: $1)
            }
            return Page(items: Array(sorted.prefix(limit)), nextCursor: nil)
        }
        let after = try cursor.map { try Cursor.decode($0, list: "gyms").id } ?? 0
        let gyms = try domainCall { try pool.read { db in try GymRepository.list(matching: search, afterID: after, limit: limit + 1, in: db) } }
        let next = gyms.count > limit ? Cursor(list: "gyms", key: 0, id: gyms[limit - 1].id).encoded : nil
        return Page(items: Array(gyms.prefix(limit)), nextCursor: next)
    }

    /// The great-circle distance from `point` to the gym (infinite for a gym with no location).
    public static func distanceKilometres(from point: (latitude: Double, longitude: Double), to gym: Gym) -> Double {
        gym.location?.distanceKilometres(to: GeoPoint(latitude: point.latitude, longitude: point.longitude)) ?? .infinity
    }

    /// The gym's managers' user ids, in the order they were named.
    /// - Throws: `DomainError.gymNotFound`.
    public func managers(gymID: Int64) throws -> [Int64] {
        try domainCall {
            try pool.read { db in
                _ = try Self.require(gymID, in: db)
                return try GymRepository.managers(gymID: gymID, in: db)
            }
        }
    }

    /// Makes a member a manager of the gym (admins only; twice is harmless).
    /// - Throws: `DomainError`: `gym_not_found`, `user_not_found`, `not_permitted`.
    public func addManager(gymID: Int64, userID: Int64, by actor: Actor) throws -> [Int64] {
        guard actor.isAdmin else { throw DomainError(.notPermitted, "Only admins name gym managers") }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                _ = try Self.require(gymID, in: db)
                guard try UserRepository.find(id: userID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No user has id \(userID)")
                }
                try GymRepository.addManager(gymID: gymID, userID: userID, now: now, in: db)
                return try GymRepository.managers(gymID: gymID, in: db)
            }
        }
    }

    /// Takes a manager's role on the gym away (admins only; harmless when they had none).
    /// - Throws: `DomainError`: `gym_not_found`, `not_permitted`.
    public func removeManager(gymID: Int64, userID: Int64, by actor: Actor) throws -> [Int64] {
        guard actor.isAdmin else { throw DomainError(.notPermitted, "Only admins name gym managers") }
        return try domainCall {
            try pool.write { db in
                _ = try Self.require(gymID, in: db)
                try GymRepository.removeManager(gymID: gymID, userID: userID, in: db)
                return try GymRepository.managers(gymID: gymID, in: db)
            }
        }
    }

    /// Whether `actor` may edit the gym and its problems.
    public func isManaged(gymID: Int64, by actor: Actor) throws -> Bool {
        if actor.isAdmin { return true }
        guard let userID = actor.userID else { return false }
        return try domainCall { try pool.read { db in try GymRepository.isManager(gymID: gymID, userID: userID, in: db) } }
    }

    static func require(_ id: Int64, in db: Database) throws -> Gym {
        guard let gym = try GymRepository.find(id: id, in: db) else {
            throw DomainError(.gymNotFound, "No gym has id \(id); GET /v1/gyms lists them")
        }
        return gym
    }

    /// - Throws: `DomainError.notPermitted` unless `actor` is an admin or a manager of the gym.
    static func requireManaged(_ gymID: Int64, by actor: Actor, in db: Database) throws {
        if actor.isAdmin { return }
        guard let userID = actor.userID, try GymRepository.isManager(gymID: gymID, userID: userID, in: db) else {
            throw DomainError(.notPermitted, "Only this gym's managers and admins may change it or its problems")
        }
    }
}
