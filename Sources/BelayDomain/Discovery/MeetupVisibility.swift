/// Who finds a meetup.
public enum MeetupVisibility: String, Sendable, CaseIterable, Codable {
    /// In lists, search, feeds and follow notices; its host may publish a public page.
    case `public`
    /// Invite-only: in no list, search, feed or follow notice and never published. Only its
    /// host, co-hosts, admins and members with an attendance (going, waiting, checked in, or
    /// let in by the host) see it; anyone else hears what an unknown id gets.
    case `private`
}
