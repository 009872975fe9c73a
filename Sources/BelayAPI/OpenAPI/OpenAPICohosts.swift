import BelayCore
import BelayHTTP

extension OpenAPIDocument {
    static let cohostSchemas: [String: JSONValue] = [
        "CohostRequest": Schema.object(["user_id": Schema.id("A user with role host or admin whom the caller can see: for a host, one who joined one of their meetups.")]),
        "Cohost": Schema.object(["id": Schema.integer, "handle": Schema.string, "display_name": Schema.string,
                                 "role": Schema.enumeration(["member", "host", "admin"])]),
        "CohostList": Schema.list(of: "Cohost"),
    ]
}

/// Co-hosts of a meetup.
extension Operations {
    private static let list = OpenAPIOperation.Answer(status: 200, description: "The co-hosts, in the order they were added.", schema: Schema.ref("CohostList"))

    static let listCohosts = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/cohosts", operationID: "listCohosts",
                                              summary: "A meetup's co-hosts (its host, co-hosts and admins).", tag: "meetups",
                                              answers: [list], problems: [403, 404])
    static let addCohost = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/cohosts", operationID: "addCohost",
                                            summary: "Give a host the host's rights on this meetup (its host and admins).", tag: "meetups",
                                            description: "A co-host manages the meetup as its host does: changes, cancellation, attendees, check-ins and their undoing, the check-in code, the rewards and statistics from it. Handing the meetup over and naming co-hosts stay with its host and admins. Adding twice is harmless. A host names only users they can see (a host or admin who joined one of their meetups); any other id answers 404 `user_not_found`, exactly as an id no user has.",
                                            requestBody: "CohostRequest", answers: [list], problems: [403, 404, 409, 413, 415, 422])
    static let removeCohost = OpenAPIOperation(method: .delete, path: "/v1/meetups/{id}/cohosts/{user_id}", operationID: "removeCohost",
                                               summary: "Take a co-host's rights away (its host and admins).", tag: "meetups",
                                               answers: [list], problems: [403, 404])
}
