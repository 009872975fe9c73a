import BelayStorage
import Foundation

/// Who may see whom: an admin everyone; a host the members who joined one of the meetups they
/// host or co-host; everyone themselves. Wherever a caller names a user by id, a user they may
/// not see is answered exactly like one that does not exist (the same `user_not_found`, the
/// same words), so that trying ids tells nobody who has an account.
enum UserVisibility {
    /// The user `id` when `actor` may see them; nil when they may not, or no user has that id.
    static func find(_ id: Int64, visibleTo actor: Actor, in db: Database) throws -> User? {
        guard actor.isAdmin || actor.userID == id || actor.role == .host else { return nil }
        guard let user = try UserRepository.find(id: id, in: db) else { return nil }
        if actor.isAdmin || actor.userID == id { return user }
        guard let hostID = actor.userID, try AttendanceRepository.attends(memberID: id, meetupHostedBy: hostID, in: db) else { return nil }
        return user
    }

    /// The user `id` when `actor` may see them.
    /// - Throws: `notFound(id, field:)` when they may not, or no user has that id.
    static func require(_ id: Int64, visibleTo actor: Actor, field: String? = nil, in db: Database) throws -> User {
        guard let user = try find(id, visibleTo: actor, in: db) else { throw notFound(id, field: field) }
        return user
    }

    /// The one answer for a user that is missing or hidden from the caller. Given in a body's
    /// `field`, the words do not repeat the id, so the answer for every such id is the same.
    static func notFound(_ id: Int64, field: String? = nil) -> DomainError {
        guard let field else { return DomainError(.userNotFound, "No user has id \(id); list users to find the right one") }
        return DomainError(.userNotFound, "No user you can see has the id given in \(field); check the id (a host sees the members who joined one of their meetups)",
                           field: field)
    }
}
