import BelayAPI
import BelayCore
import BelayDomain
import Foundation
import Testing

/// A block holds on every route that lists meetups or attendees and on every join, found by
/// walking the OpenAPI document's operations: a new route that lists meetups is checked
/// without anyone remembering to add it here.
@Suite struct BlockedEverywhereTests {
    /// The document's operations as (method, path, the 200 answer's schema reference).
    static func operations() -> [(method: String, path: String, answer: String?)] {
        let document = OpenAPIDocument.document(serverURL: "/")
        var found: [(String, String, String?)] = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] {
                let answers = operation["responses"]
                let schema = (answers?["200"] ?? answers?["201"])?["content"]?["application/json"]?["schema"]?["$ref"]?.stringValue
                found.append((method, path, schema.map { String($0.split(separator: "/").last ?? "") }))
            }
        }
        return found.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    @Test func everyMeetupListEveryAttendeeListAndEveryJoinKnowsTheBlock() throws {
        let fixture = try APIFixture()
        let blocker = try fixture.member()
        let bystander = try fixture.member()
        let hosted = try fixture.meetup()
        let blockersOwn = try fixture.meetup(host: blocker)
        let elsewhere = try fixture.meetup(host: bystander)
        // The blocker is already going to the host's meetup (they stay), then blocks the host.
        #expect(fixture.post("/v1/meetups/\(hosted.id)/join", as: blocker).status == 201)
        #expect(fixture.send(.put, "/v1/me/blocks/\(fixture.host.id)", token: blocker.token).status == 201)
        try fixture.domain.safety.block(blocker.id, by: fixture.host.id)

        let operations = Self.operations()
        let meetupLists = operations.filter { $0.method == "get" && $0.answer == "MeetupList" }
        let attendeeLists = operations.filter { $0.method == "get" && $0.answer == "AttendeeList" && $0.path.contains("{id}") }
        let joins = operations.filter { $0.method == "post" && $0.path.hasSuffix("/join") }
        #expect(!meetupLists.isEmpty && !attendeeLists.isEmpty && !joins.isEmpty, "the document lists no such operation any more")

        for list in meetupLists {
            #expect(!list.path.contains("{"), "\(list.path): a meetup list with path parameters needs a case here")
            let seenByBlocker = fixture.get(list.path, as: blocker)["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            let seenByHost = fixture.get(list.path, as: fixture.host)["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            #expect(!seenByBlocker.contains(hosted.id), "GET \(list.path) shows the blocked host's meetup")
            #expect(!seenByHost.contains(blockersOwn.id), "GET \(list.path) shows the host the blocker's meetup")
            #expect(seenByBlocker.contains(elsewhere.id) && seenByHost.contains(elsewhere.id), "GET \(list.path) lost an unrelated meetup")
        }
        var flagged = 0
        for list in attendeeLists {
            let path = list.path.replacingOccurrences(of: "{id}", with: String(hosted.id))
            let answer = fixture.get(path, as: fixture.host)
            guard answer.status == 200 else { continue }  // a list of another state (the no-shows of a completed meetup)
            let items = answer["items"]?.arrayValue ?? []
            for item in items where item["user_id"]?.intValue == blocker.id {
                #expect(item["blocked_by_host"] == .bool(true), "GET \(list.path) does not show the host's block")
                flagged += 1
            }
        }
        #expect(flagged >= 1, "no attendee list showed the member who is going")
        let another = try fixture.meetup(capacity: 5)
        for join in joins {
            let path = join.path.replacingOccurrences(of: "{id}", with: String(another.id))
            let refused = fixture.post(path, as: blocker)
            #expect(refused.status == 403, "POST \(join.path) let a blocked member in")
            #expect(refused["code"]?.stringValue == "not_permitted")
            #expect(fixture.post(path.replacingOccurrences(of: String(another.id), with: String(blockersOwn.id)), as: fixture.host).status == 403,
                    "POST \(join.path) let the blocked host in")
        }
    }
}
