import BelayStorage
import Foundation

/// The one rule for who manages a meetup: admins every meetup; a host (or admin) the
/// meetups they host or co-host.
enum HostRights {
    /// Whether `actor` has the host's rights on the meetup.
    static func manages(_ actor: Actor, meetupID: Int64, hostID: Int64, in db: Database) throws -> Bool {
        if actor.isAdmin { return true }
        guard actor.role == .host, let userID = actor.userID else { return false }
        if userID == hostID { return true }
        return try MeetupHostRepository.isCohost(meetupID: meetupID, userID: userID, in: db)
    }
}
