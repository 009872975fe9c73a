import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
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
    func registerCohostRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.listCohosts, allowing: [.host, .admin], to: "see a meetup's co-hosts") { _, context in
            let caller = context.caller
            let meetup = try domain.meetups.meetup(id: try context.id())
            try requireManager(of: meetup, caller, to: "see its co-hosts")
            return try cohostList(meetup.id)
        }

        routes.on(Operations.addCohost, allowing: [.host, .admin], to: "name co-hosts") { request, context in
            let caller = context.caller
            let id = try context.id()
            let body = try request.decodeJSON(as: AddCohostRequest.self)
            try domain.meetups.addCohost(meetupID: id, userID: body.userID, by: caller.actor)
            return try cohostList(id)
        }

        routes.on(Operations.removeCohost, allowing: [.host, .admin], to: "remove co-hosts") { _, context in
            let caller = context.caller
            let id = try context.id()
            try domain.meetups.removeCohost(meetupID: id, userID: try context.id("user_id"), by: caller.actor)
            return try cohostList(id)
        }
    }

    private func cohostList(_ meetupID: Int64) throws -> Response {
        let users = try domain.meetups.cohosts(meetupID: meetupID).map { try domain.users.user(id: $0) }
        return .api(ListBody(items: users.map(CohostBody.init), nextCursor: nil))
    }
}
