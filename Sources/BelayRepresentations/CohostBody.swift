import BelayCore
import BelayDomain

/// A co-host of a meetup (a host or admin) by id, handle, name and role, as
/// `GET /v1/meetups/{id}/cohosts` lists them and `belay meetups cohosts --json` prints them.
public struct CohostBody: JSONRepresentable {
    public let user: User

    public init(user: User) {
        self.user = user
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", user.id)
            json.member("handle", user.handle)
            json.member("display_name", user.displayName)
            json.member("role", user.role.rawValue)
        }
    }
}
