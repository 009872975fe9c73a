import BelayStorage
import Foundation

/// The one rule for who manages a meetup: admins every meetup; its host (a member too, where
/// members create their own meetups); a host the meetups they co-host.
enum HostRights {
    /// Whether `actor` has the host's rights on the meetup.
    static func manages(_ actor: Actor, meetupID: Int64, hostID: Int64, in db: Database) throws -> Bool {
        if actor.isAdmin { return true }
        guard let userID = actor.userID else { return false }
        // A member may host the meetups they create (`meetups.created_by` is `members`): being
        // the meetup's host is the right, whatever the role. Co-hosts are hosts.
        if userID == hostID { return true }
        guard actor.role == .host else { return false }
        return try MeetupHostRepository.isCohost(meetupID: meetupID, userID: userID, in: db)
    }
}
