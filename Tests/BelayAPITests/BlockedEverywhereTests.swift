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
        let document = ResponseContract.current.conformance.document
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

    /// A value for each query parameter of a meetup list that matches the walk's meetups (all
    /// at one gym, bouldering V3–V5, `social`, on 2026-12-12 in Seoul); the walk fails on a
    /// documented parameter missing here.
    static let searchValues: [String: String] = [
        "near": "37.4979,127.0276", "radius_km": "5", "gym_id": "{gym}", "from": "2026-12-12", "to": "2026-12-12", "q": "forest",
        "level": "V4", "discipline": "bouldering", "tag": "social", "has_spots": "true", "sort": "distance", "scope": "all",
        "place": "Seoul Forest Climbing", "include_cancelled": "false", "limit": "50",
    ]
    /// Parameters that need another beside them.
    static let companions: [String: String] = ["radius_km": "near", "sort": "near"]
    /// Parameters with no value to walk: paging, and `host_id` (which names one host: its own case below).
    static let unwalked: Set<String> = ["cursor", "host_id"]

    /// The document's query parameters of an operation.
    static func queryParameters(_ method: String, _ path: String) -> [String] {
        let operation = ResponseContract.current.conformance.document["paths"]?[path]?[method]
        return (operation?["parameters"]?.arrayValue ?? []).compactMap { $0["in"]?.stringValue == "query" ? $0["name"]?.stringValue : nil }
    }

    /// The walk's meetups, created over the API: one of the host, one of the blocker, one of a bystander.
    private static func meetups(_ fixture: APIFixture, blocker: APIFixture.Member, bystander: APIFixture.Member) throws -> (gym: Int64, hosted: Int64, blockersOwn: Int64, elsewhere: Int64) {
        let gym = try #require(fixture.post("/v1/gyms", as: fixture.admin, json: MeetupDiscoveryAPITests.gym)["id"]?.intValue)
        var ids: [Int64] = []
        for member in [fixture.host, blocker, bystander] {
            ids.append(try MeetupDiscoveryAPITests.meetup(fixture, as: member, """
                "title": "Saturday session", "gym_id": \(gym), "place_name": "Seoul Forest Climbing",
                "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T21:00:00+09:00",
                "discipline": "bouldering", "level_min": "V3", "level_max": "V5", "tags": ["social"]
                """))
        }
        return (gym, ids[0], ids[1], ids[2])
    }

    /// Every documented meetup list and feed, with each of its parameters in turn (and its
    /// whole set at once): neither side of a block sees the other's meetup; the bystander's
    /// meetup shows, so each query really matched. Following a host blocked either way is
    /// refused (403 `not_permitted`) and a follow made before the block leaves the follows.
    @Test func everySearchFilterTheFeedAndTheFollowsKnowTheBlock() throws {
        let fixture = try APIFixture()
        let blocker = try fixture.member()
        let bystander = try fixture.member()
        let (gym, hosted, blockersOwn, elsewhere) = try Self.meetups(fixture, blocker: blocker, bystander: bystander)
        #expect(fixture.send(.put, "/v1/me/follows/hosts/\(fixture.host.id)", token: blocker.token).status == 200)
        #expect(fixture.send(.put, "/v1/me/follows/hosts/\(blocker.id)", token: fixture.host.token).status == 200)
        for member in [blocker, fixture.host] {
            #expect(fixture.send(.put, "/v1/me/follows/hosts/\(bystander.id)", token: member.token).status == 200)
            #expect(fixture.send(.put, "/v1/me/follows/gyms/\(gym)", token: member.token).status == 200)
        }
        #expect(fixture.send(.put, "/v1/me/blocks/\(fixture.host.id)", token: blocker.token).status == 201)

        let operations = Self.operations()
        let lists = operations.filter { $0.method == "get" && ($0.answer == "MeetupList" || $0.answer == "FeedList") }
        #expect(lists.contains { $0.answer == "FeedList" }, "the document lists no feed any more")
        func ids(_ answer: APIResponse) -> [Int64] {
            (answer["items"]?.arrayValue ?? []).compactMap { ($0["meetup"] ?? $0)["id"]?.intValue }
        }
        for list in lists {
            #expect(!list.path.contains("{"), "\(list.path): a list with path parameters needs a case here")
            let names = Self.queryParameters(list.method, list.path).filter { !Self.unwalked.contains($0) }
            var queries = [""]
            for name in names {
                guard let value = Self.searchValues[name] else {
                    Issue.record("GET \(list.path): query parameter `\(name)` has no value in the walk; add one to searchValues")
                    continue
                }
                var query = "\(name)=\(value.replacingOccurrences(of: "{gym}", with: String(gym)))"
                if let companion = Self.companions[name], let other = Self.searchValues[companion] { query += "&\(companion)=\(other)" }
                queries.append(query)
            }
            queries.append(names.compactMap { name in Self.searchValues[name].map { "\(name)=\($0.replacingOccurrences(of: "{gym}", with: String(gym)))" } }
                .joined(separator: "&"))
            for query in queries {
                let target = query.isEmpty ? list.path : "\(list.path)?\(query)"
                let byBlocker = fixture.get(target, as: blocker)
                let byHost = fixture.get(target, as: fixture.host)
                #expect(byBlocker.status == 200 && byHost.status == 200, "GET \(target): \(byBlocker.status), \(byHost.status)")
                #expect(!ids(byBlocker).contains(hosted), "GET \(target) shows the blocked host's meetup")
                #expect(!ids(byHost).contains(blockersOwn), "GET \(target) shows the host the blocker's meetup")
                #expect(ids(byBlocker).contains(elsewhere) && ids(byHost).contains(elsewhere), "GET \(target) lost the bystander's meetup: the query matched nothing")
            }
            if Self.queryParameters(list.method, list.path).contains("host_id") {
                #expect(!ids(fixture.get("\(list.path)?host_id=\(fixture.host.id)", as: blocker)).contains(hosted))
                #expect(!ids(fixture.get("\(list.path)?host_id=\(blocker.id)", as: fixture.host)).contains(blockersOwn))
            }
        }

        // One meetup by id: as an unknown one, to both sides.
        let refused = fixture.get("/v1/meetups/\(hosted)", as: blocker)
        #expect(refused.status == 404 && refused["code"]?.stringValue == "meetup_not_found")
        #expect(fixture.get("/v1/meetups/\(blockersOwn)", as: fixture.host).status == 404)
        #expect(fixture.get("/v1/meetups/\(hosted)", as: bystander).status == 200)

        // Follows: the blocked host leaves the list, and cannot be followed again, both ways.
        let follows = operations.filter { $0.method == "get" && $0.answer == "FollowList" }
        #expect(!follows.isEmpty, "the document lists no follows any more")
        for list in follows {
            func hosts(_ answer: APIResponse) -> [Int64] {
                (answer["items"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue == "host" ? $0["id"]?.intValue : nil }
            }
            let blockersFollows = hosts(fixture.get(list.path, as: blocker))
            let hostsFollows = hosts(fixture.get(list.path, as: fixture.host))
            #expect(!blockersFollows.contains(fixture.host.id) && blockersFollows.contains(bystander.id), "GET \(list.path) as the blocker: \(blockersFollows)")
            #expect(!hostsFollows.contains(blocker.id) && hostsFollows.contains(bystander.id), "GET \(list.path) as the host: \(hostsFollows)")
        }
        for (follower, followed) in [(blocker, fixture.host), (fixture.host, blocker)] {
            let again = fixture.send(.put, "/v1/me/follows/hosts/\(followed.id)", token: follower.token)
            #expect(again.status == 403 && again["code"]?.stringValue == "not_permitted", "following a host blocked either way: \(again.status)")
            #expect(again["detail"]?.stringValue?.contains("block") == false, "the refusal speaks of the block")
        }
        #expect(fixture.send(.delete, "/v1/me/blocks/\(fixture.host.id)", token: blocker.token).status == 200)
        #expect(fixture.get("/v1/meetups/\(hosted)", as: blocker).status == 200)
        #expect(fixture.get("/v1/me/follows", as: blocker)["items"]?.arrayValue?.contains { $0["type"]?.stringValue == "host" && $0["id"]?.intValue == fixture.host.id } == true,
                "the follow made before the block did not come back with its lifting")
    }

    /// The busiest read, one meetup, is answered from a cache shared by every member: a member
    /// with blocks is never answered from it.
    @Test func aCachedMeetupIsNotShownAcrossABlock() throws {
        let fixture = try APIFixture(responseCacheLifetime: .seconds(3_600))
        let blocker = try fixture.member()
        let bystander = try fixture.member()
        let hosted = try fixture.meetup()
        #expect(fixture.get("/v1/meetups/\(hosted.id)", as: bystander).status == 200)
        try fixture.domain.safety.block(fixture.host.id, by: blocker.id)  // behind the server's back: the cache still holds the body
        #expect(fixture.get("/v1/meetups/\(hosted.id)", as: blocker).status == 404)
        #expect(fixture.get("/v1/meetups/\(hosted.id)", as: bystander).status == 200)
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

    /// A co-host counts as the host: a block either way with one keeps the member from the
    /// meetup on every documented meetup list, feed, by id and join, and the attendee list
    /// shows the co-host's block of a member already going, to the host and the co-host alike.
    @Test func aCohostsBlockHoldsOnEveryMeetupListFeedAttendeeListAndJoin() throws {
        let fixture = try APIFixture()
        let cohost = try fixture.member(role: .host, name: "cohost")
        let (shunned, blocker, bystander, going) = (try fixture.member(), try fixture.member(), try fixture.member(), try fixture.member())
        let gym = try #require(fixture.post("/v1/gyms", as: fixture.admin, json: MeetupDiscoveryAPITests.gym)["id"]?.intValue)
        let cohosted = try MeetupDiscoveryAPITests.meetup(fixture, as: fixture.host, """
            "title": "Saturday session", "gym_id": \(gym), "place_name": "Seoul Forest Climbing",
            "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T21:00:00+09:00"
            """)
        _ = try fixture.domain.meetups.addCohost(meetupID: cohosted, userID: cohost.id, by: .commandLine)
        for member in [shunned, blocker, bystander] {
            #expect(fixture.send(.put, "/v1/me/follows/gyms/\(gym)", token: member.token).status == 200)
        }
        #expect(fixture.post("/v1/meetups/\(cohosted)/join", as: going).status == 201)
        #expect(fixture.send(.put, "/v1/me/blocks/\(shunned.id)", token: cohost.token).status == 201)
        #expect(fixture.send(.put, "/v1/me/blocks/\(cohost.id)", token: blocker.token).status == 201)
        #expect(fixture.send(.put, "/v1/me/blocks/\(going.id)", token: cohost.token).status == 201)

        let operations = Self.operations()
        let lists = operations.filter { $0.method == "get" && ($0.answer == "MeetupList" || $0.answer == "FeedList") }
        #expect(lists.contains { $0.answer == "FeedList" } && lists.contains { $0.answer == "MeetupList" }, "the document lists no such operation any more")
        for list in lists {
            #expect(!list.path.contains("{"), "\(list.path): a list with path parameters needs a case here")
            func ids(_ member: APIFixture.Member) -> [Int64] {
                (fixture.get(list.path, as: member)["items"]?.arrayValue ?? []).compactMap { ($0["meetup"] ?? $0)["id"]?.intValue }
            }
            for member in [shunned, blocker] { #expect(!ids(member).contains(cohosted), "GET \(list.path) shows a meetup across its co-host's block") }
            #expect(ids(bystander).contains(cohosted), "GET \(list.path) lost the meetup for a bystander")
        }
        for member in [shunned, blocker] {
            let refused = fixture.get("/v1/meetups/\(cohosted)", as: member)
            #expect(refused.status == 404 && refused["code"]?.stringValue == "meetup_not_found")
        }
        #expect(fixture.get("/v1/meetups/\(cohosted)", as: going).status == 200, "a member going still reads the meetup they attend")

        let attendeeLists = operations.filter { $0.method == "get" && $0.answer == "AttendeeList" && $0.path.contains("{id}") }
        #expect(!attendeeLists.isEmpty)
        var flagged = 0
        for list in attendeeLists {
            let path = list.path.replacingOccurrences(of: "{id}", with: String(cohosted))
            for reader in [fixture.host, cohost] {
                let answer = fixture.get(path, as: reader)
                guard answer.status == 200 else { continue }
                for item in answer["items"]?.arrayValue ?? [] where item["user_id"]?.intValue == going.id {
                    #expect(item["status"]?.stringValue == "going", "GET \(list.path): the member going was moved")
                    #expect(item["blocked_by_host"] == .bool(true), "GET \(list.path) does not show the co-host's block")
                    flagged += 1
                }
            }
        }
        #expect(flagged >= 2, "no attendee list showed the member who is going to the host and the co-host")

        let joins = operations.filter { $0.method == "post" && $0.path.hasSuffix("/join") }
        #expect(!joins.isEmpty)
        for join in joins {
            let path = join.path.replacingOccurrences(of: "{id}", with: String(cohosted))
            for member in [shunned, blocker] {
                let refused = fixture.post(path, as: member)
                #expect(refused.status == 403 && refused["code"]?.stringValue == "not_permitted", "POST \(join.path) let a member in across a co-host's block")
                #expect(refused["detail"]?.stringValue?.contains("block") == false, "the refusal speaks of the block")
            }
            #expect(fixture.post(path, as: bystander).status == 201)
        }
    }

    /// Every documented read of one meetup (`GET /v1/meetups/{id}…`) that a member who is not
    /// attending can make answers across a block, either way and through a co-host too, exactly
    /// as it answers for an id no meetup has: a new such route cannot forget the block.
    @Test func everyReadOfOneMeetupAnswersAcrossABlockAsForAnUnknownId() throws {
        let fixture = try APIFixture()
        let cohost = try fixture.member(role: .host, name: "cohost")
        let (blocker, shunned, bystander) = (try fixture.member(), try fixture.member(), try fixture.member())
        let hosted = try fixture.meetup()
        let cohosted = try fixture.meetup(host: bystander)
        _ = try fixture.domain.meetups.addCohost(meetupID: cohosted.id, userID: cohost.id, by: .commandLine)
        #expect(fixture.send(.put, "/v1/me/blocks/\(fixture.host.id)", token: blocker.token).status == 201)
        #expect(fixture.send(.put, "/v1/me/blocks/\(shunned.id)", token: cohost.token).status == 201)

        let reads = Self.operations().filter { $0.method == "get" && $0.path.hasPrefix("/v1/meetups/{id}") }
            .filter { $0.path.replacingOccurrences(of: "{id}", with: "").contains("{") == false }
        #expect(reads.contains { $0.path == "/v1/meetups/{id}" } && reads.contains { $0.path == "/v1/meetups/{id}.ics" })
        var walked = 0
        for read in reads {
            let other = try fixture.member()
            let unknown = fixture.get(read.path.replacingOccurrences(of: "{id}", with: "987654"), as: other)
            for (member, meetup) in [(blocker, hosted.id), (shunned, cohosted.id)] {
                let path = read.path.replacingOccurrences(of: "{id}", with: String(meetup))
                // Only what a stranger to the meetup may read: the host's own routes refuse everyone else anyway.
                guard (200..<300).contains(fixture.get(path, as: other).status) else { continue }
                walked += 1
                let answer = fixture.get(path, as: member)
                #expect(answer.status == unknown.status && answer["code"] == unknown["code"],
                        "GET \(read.path) across a block answers \(answer.status) \(answer["code"]?.stringValue ?? ""), an unknown id \(unknown.status) \(unknown["code"]?.stringValue ?? "")")
            }
        }
        #expect(walked >= 4, "the walk read too few routes: \(walked)")
    }
}
