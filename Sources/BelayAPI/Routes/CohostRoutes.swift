import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

/// `POST /v1/meetups/{id}/cohosts`.
struct AddCohostRequest: Decodable {
    var userID: Int64

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
    }
}

extension APIRoutes {
    /// A meetup's co-hosts: listed for those who manage it, named by its host or an admin.
    func registerCohostRoutes(on routes: RouteGroup<APIContext>) {
        routes.get("/v1/meetups/{id}/cohosts") { _, context in
            let caller = try context.requireRole([.host, .admin], to: "see a meetup's co-hosts")
            let meetup = try domain.meetups.meetup(id: try context.id())
            try requireManager(of: meetup, caller, to: "see its co-hosts")
            return try cohostList(meetup.id)
        }

        routes.post("/v1/meetups/{id}/cohosts") { request, context in
            let caller = try context.requireRole([.host, .admin], to: "name co-hosts")
            let id = try context.id()
            let body = try request.decodeJSON(as: AddCohostRequest.self)
            try domain.meetups.addCohost(meetupID: id, userID: body.userID, by: caller.actor)
            return try cohostList(id)
        }

        routes.delete("/v1/meetups/{id}/cohosts/{user_id}") { _, context in
            let caller = try context.requireRole([.host, .admin], to: "remove co-hosts")
            let id = try context.id()
            try domain.meetups.removeCohost(meetupID: id, userID: try context.id("user_id"), by: caller.actor)
            return try cohostList(id)
        }
    }

    private func cohostList(_ meetupID: Int64) throws -> Response {
        let users = try domain.meetups.cohosts(meetupID: meetupID).map { try domain.users.user(id: $0) }
        var json = JSONOutput()
        json.object { json in
            json.key("items")
            json.array(users) { json, user in
                json.object { json in
                    json.member("id", user.id)
                    json.member("handle", user.handle)
                    json.member("display_name", user.displayName)
                    json.member("role", user.role.rawValue)
                }
            }
            json.member("next_cursor", nil as String?)
        }
        return .json(bytes: json.bytes)
    }
}
