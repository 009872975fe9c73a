import BelayAPI
import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// Who may do what: members act for themselves, hosts manage the meetups they host, admins
/// everything, and only three routes answer without a token.
@Suite struct APIRoleTests {
    @Test func onlyHealthReadinessTheDocumentAndSharePagesAnswerWithoutAToken() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let publicPatterns: Set<String> = ["/healthz", "/readyz", "/openapi.json", "/s/{slug}", "/s/{slug}/sticker.png",
                                           "/s/{slug}/card.png", "/assets/share-page.css",
                                           "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json",
                                           "/issuer", "/issuer/keys/{thumbprint}", "/badges/status/{thumbprint}", "/holds/{hold_id}/artwork.png",
                                           "/k/{token}", "/k/{token}/state", "/m/{slug}", "/m/{slug}.ics", "/m/{slug}/card.png"]
        for route in fixture.application.routes {
            let path = route.pattern.replacingOccurrences(of: "{id}", with: "1")
                .replacingOccurrences(of: "{hash}", with: String(repeating: "0", count: 64))
                .replacingOccurrences(of: "{slug}", with: String(repeating: "A", count: 22))
                .replacingOccurrences(of: "{thumbprint}", with: String(repeating: "A", count: 43))
            let response = fixture.send(route.method, path)
            if ["/healthz", "/readyz", "/openapi.json", "/assets/share-page.css", "/issuer", "/assets/kiosk.js", "/assets/kiosk.css",
                "/c/{id}"].contains(route.pattern) {
                #expect(response.status == 200, "\(route) without a token")
                schemas.check(response, route.method, route.pattern)
            } else if route.pattern.hasPrefix("/v1/auth/") && route.pattern != "/v1/auth/sign-out" {
                // Signing in needs no token: without a body it is refused for the body, never for a token.
                #expect(response.status == 400, "\(route) without a body")
                #expect(response.problemCode == "empty_body", "\(route)")
                #expect(response.headers["WWW-Authenticate"] == nil, "\(route)")
            } else if route.pattern == "/auth/email/{token}" || route.pattern == "/invite/{code}" {
                // The web side of the app's universal links: a page that says to open the app.
                #expect(response.status == 200, "\(route) without a token")
                #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
            } else if route.pattern == "/v1/calendar/{token}.ics" {
                // The feed's token in the URL is its credential (calendar apps send no header).
                #expect(response.status == 404, "\(route) with a token that is not one")
                #expect(response.problemCode == "calendar_not_found")
            } else if route.pattern == "/" || route.pattern == "/openapi.html" || route.pattern.hasPrefix("/console") || route.pattern.hasPrefix("/assets/console") {
                // The console and the front door: pages for a browser, signed in by cookie
                // (ConsoleSessionTests and FrontDoorTests hold them to their own rules); never a bearer challenge.
                #expect(response.headers["WWW-Authenticate"] == nil, "\(route)")
            } else if publicPatterns.contains(route.pattern) {
                // Public, and answering "not found" for an unknown slug or an unconfigured app.
                #expect(response.status == 404, "\(route) without a token")
                #expect(response.headers["WWW-Authenticate"] == nil, "\(route)")
                schemas.check(response, route.method, route.pattern)
            } else {
                #expect(response.status == 401, "\(route) without a token")
                #expect(response.problemCode == "missing_token", "\(route)")
                #expect(response.headers["WWW-Authenticate"] == "Bearer realm=\"belay\"", "\(route)")
                schemas.check(response, route.method, route.pattern)
            }
        }
    }

    @Test func badTokensAreRefusedWithAChallenge() throws {
        let fixture = try APIFixture()
        let unknown = fixture.send(.get, "/v1/me", token: "belay_" + String(repeating: "A", count: 43))
        #expect(unknown.status == 401)
        #expect(unknown.problemCode == "invalid_token")
        #expect(unknown.headers["WWW-Authenticate"]?.contains("error=\"invalid_token\"") == true)
        let basic = fixture.send(.get, "/v1/me", headers: [("Authorization", "Basic YWRtaW46YWRtaW4=")])
        #expect(basic.problemCode == "invalid_authorization")
        #expect(fixture.send(.get, "/v1/me", headers: [("Authorization", "Bearer")]).problemCode == "invalid_authorization")
        #expect(fixture.send(.get, "/v1/me", headers: [("Authorization", "bearer \(fixture.host.token)")]).status == 200)
    }

    @Test func revokedTokensStopWorkingOnceTheCacheEntryExpires() throws {
        let fixture = try APIFixture(tokenCacheLifetime: .milliseconds(100))
        let member = try fixture.member()
        #expect(fixture.get("/v1/me", as: member).status == 200)
        let token = try #require(fixture.domain.users.tokens(userID: member.id).first)
        try fixture.domain.users.revokeToken(id: token.id)
        #expect(fixture.get("/v1/me", as: member).status == 200, "still cached")
        fixture.clock.advance(by: 0.1)
        #expect(fixture.get("/v1/me", as: member).status == 401)
    }

    @Test func membersCannotRunMeetupsOrSeeWhatIsTheHosts() throws {
        // The club keeps creating meetups to its hosts (the default lets members create their own).
        let fixture = try APIFixture(settings: ["meetups": ["created_by": "hosts"]])
        let member = try fixture.member()
        let meetup = try fixture.meetup()
        let create = fixture.post("/v1/meetups", as: member, json: """
            {"title": "Mine", "place_name": "Gym", "starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5}
            """)
        #expect(create.status == 403)
        #expect(create.problemCode == "not_permitted")
        #expect(create["reason"]?.stringValue == "not_permitted")
        #expect(fixture.send(.patch, "/v1/meetups/\(meetup.id)", token: member.token, json: #"{"title": "Renamed"}"#).status == 403)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/cancel", as: member).status == 403)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees", as: member).status == 403)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/check-in-code", as: member).status == 403)
        #expect(fixture.get("/v1/stats/shares", as: member).status == 403)
        #expect(fixture.get("/metrics", as: member).status == 403)
        #expect(fixture.get("/v1/users/\(fixture.host.id)/collection.png", as: member).status == 403)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member).status == 200)
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).title == "Evening session")
    }

    @Test func byDefaultAMemberCreatesAndHostsTheirOwnMeetup() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let create = fixture.post("/v1/meetups", as: member, json: """
            {"title": "Mine", "place_name": "Gym", "starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5}
            """)
        #expect(create.status == 201, "\(String(decoding: create.bytes, as: UTF8.self))")
        let id = try #require(create["id"]?.intValue)
        #expect(create["host_id"]?.intValue == member.id)
        #expect(fixture.get("/v1/meetups/\(id)/check-in-code", as: member).status == 200)
        #expect(fixture.send(.patch, "/v1/meetups/\(id)", token: member.token, json: #"{"title": "Mine, renamed"}"#).status == 200)
        #expect(fixture.get("/v1/meetups/\(id)/attendees", as: member).status == 200)
        #expect(fixture.get("/v1/meetups/\(id)/attendees.csv", as: member).status == 200)
        #expect(fixture.get("/v1/stats/shares?meetup_id=\(id)", as: member).status == 200, "a member who hosts sees their meetup's shares")
        #expect(fixture.post("/v1/meetups/\(id)/cancel", as: member).status == 200)
        // Another member has none of that on it.
        let other = try fixture.member()
        #expect(fixture.get("/v1/meetups/\(id)/check-in-code", as: other).status == 403)
        #expect(fixture.get("/v1/meetups/\(id)/attendees", as: other).status == 403)
        #expect(fixture.get("/v1/stats/shares?meetup_id=\(id)", as: other).status == 403)
        // Not for someone else, though.
        let forHost = fixture.post("/v1/meetups", as: member, json: """
            {"title": "Theirs", "place_name": "Gym", "starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T21:00:00+09:00",
             "capacity": 5, "host_id": \(fixture.host.id)}
            """)
        #expect(forHost.status == 403)
    }

    @Test func membersActOnlyForThemselves() throws {
        let fixture = try APIFixture()
        let (member, other) = (try fixture.member(), try fixture.member())
        let meetup = try fixture.meetup(startsIn: 0)
        for person in [member, other] { #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: person).status == 201) }
        // Checking someone else in needs the host.
        let forOther = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: member, json: #"{"user_id": \#(other.id)}"#)
        #expect(forOther.status == 403)
        #expect(forOther["reason"]?.stringValue == "not_permitted")
        // Another member's reward, its images, its share payload and its share events are off limits.
        let code = try fixture.currentCode(meetup)
        let checkedIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: other, json: #"{"code": "\#(code)"}"#)
        let rewardID = try #require(checkedIn["reward"]?["id"]?.intValue)
        // They are answered exactly as ids that do not exist, so a member cannot tell which ids are taken.
        let missingID = rewardID + 1_000
        let hash = String(repeating: "0", count: 64)
        for (path, missingPath) in [("/v1/rewards/\(rewardID)", "/v1/rewards/\(missingID)"),
                                    ("/v1/rewards/\(rewardID)/share", "/v1/rewards/\(missingID)/share"),
                                    ("/v1/rewards/\(rewardID)/sticker/\(hash).png", "/v1/rewards/\(missingID)/sticker/\(hash).png")] {
            let theirs = fixture.get(path, as: member)
            let missing = fixture.get(missingPath, as: member)
            #expect(theirs.status == 404, "\(path)")
            #expect(theirs.problemCode == missing.problemCode, "\(path)")
            #expect(theirs["detail"]?.stringValue == missing["detail"]?.stringValue?.replacingOccurrences(of: "\(missingID)", with: "\(rewardID)"))
        }
        let eventJSON = #"{"target": "instagram", "completed": true, "client_event_id": "x"}"#
        let event = fixture.post("/v1/rewards/\(rewardID)/share-events", as: member, json: eventJSON)
        let missingEvent = fixture.post("/v1/rewards/\(missingID)/share-events", as: member, json: eventJSON)
        #expect(event.status == 404)
        #expect(event.problemCode == missingEvent.problemCode)
        #expect(event["reason"]?.stringValue == "reward_not_found")
        #expect(fixture.get("/v1/me/rewards", as: member)["items"]?.arrayValue?.isEmpty == true)
    }

    @Test func hostsManageOnlyTheMeetupsTheyHost() throws {
        let fixture = try APIFixture()
        let otherHost = try fixture.member(role: .host, name: "otherhost")
        let mine = try fixture.meetup(startsIn: 0)
        let theirs = try fixture.meetup(startsIn: 0, host: otherHost)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(theirs.id)/join", as: member).status == 201)

        #expect(fixture.send(.patch, "/v1/meetups/\(theirs.id)", token: fixture.host.token, json: #"{"capacity": 3}"#).status == 403)
        #expect(fixture.post("/v1/meetups/\(theirs.id)/cancel", as: fixture.host).status == 403)
        #expect(fixture.get("/v1/meetups/\(theirs.id)/attendees", as: fixture.host).status == 403)
        #expect(fixture.get("/v1/meetups/\(theirs.id)/check-in-code", as: fixture.host).status == 403)
        #expect(fixture.post("/v1/meetups/\(theirs.id)/check-in", as: fixture.host, json: #"{"user_id": \#(member.id)}"#).status == 403)
        #expect(fixture.get("/v1/stats/shares?meetup_id=\(theirs.id)", as: fixture.host).status == 403)
        let creatingForAnother = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "T", "place_name": "P", "starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T21:00:00+09:00",
             "capacity": 5, "host_id": \(otherHost.id)}
            """)
        #expect(creatingForAnother.status == 403)

        // Their own meetup: everything works, including checking a member in and seeing the reward.
        #expect(fixture.post("/v1/meetups/\(mine.id)/join", as: member).status == 201)
        let changed = fixture.send(.patch, "/v1/meetups/\(mine.id)", token: fixture.host.token, json: #"{"capacity": 3, "address": null}"#)
        #expect(changed.status == 200)
        #expect(changed["capacity"]?.intValue == 3)
        let hostCheckIn = fixture.post("/v1/meetups/\(mine.id)/check-in", as: fixture.host, json: #"{"user_id": \#(member.id)}"#)
        #expect(hostCheckIn.status == 201)
        #expect(hostCheckIn["attendance"]?["check_in_method"]?.stringValue == "host")
        #expect(hostCheckIn["attendance"]?["checked_in_by"]?.intValue == fixture.host.id)
        let rewardID = try #require(hostCheckIn["reward"]?["id"]?.intValue)
        #expect(fixture.get("/v1/rewards/\(rewardID)", as: fixture.host).status == 200)
        #expect(fixture.get("/v1/rewards/\(rewardID)", as: otherHost).status == 404)
        let collection = fixture.get("/v1/users/\(member.id)/collection.png", as: fixture.host)
        #expect(collection.status == 200)
        // Drawn from the host's own meetups only.
        #expect(String(decoding: collection.bytes, as: UTF8.self).hasSuffix("host \(fixture.host.id)"))
        #expect(String(decoding: fixture.get("/v1/users/\(member.id)/collection.png", as: fixture.admin).bytes, as: UTF8.self)
            .contains("host") == false)
        // A member who never joined the host's meetups is answered like one who does not exist.
        let stranger = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(theirs.id)/join", as: stranger).status == 201)
        let unseen = fixture.get("/v1/users/\(stranger.id)/collection.png", as: fixture.host)
        let unknown = fixture.get("/v1/users/\(stranger.id + 1_000)/collection.png", as: fixture.host)
        #expect(unseen.status == 404)
        #expect(unseen.problemCode == unknown.problemCode)
        #expect(fixture.get("/v1/users/\(stranger.id)/collection.png", as: otherHost).status == 200)
        #expect(fixture.post("/v1/meetups/\(mine.id)/cancel", as: fixture.host)["status"]?.stringValue == "cancelled")
    }

    @Test func coHostsSeeTheRewardsAndMembersOfTheMeetupsTheyCoHost() throws {
        let fixture = try APIFixture()
        let cohost = try fixture.member(role: .host, name: "cohost")
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: fixture.host, json: #"{"user_id": \#(member.id)}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)
        // Not yet a co-host: answered like a reward and a member that do not exist.
        #expect(fixture.get("/v1/rewards/\(rewardID)", as: cohost).status == 404)
        #expect(fixture.get("/v1/users/\(member.id)/collection.png", as: cohost).status == 404)
        _ = try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        #expect(fixture.get("/v1/rewards/\(rewardID)", as: cohost).status == 200)
        let collection = fixture.get("/v1/users/\(member.id)/collection.png", as: cohost)
        #expect(collection.status == 200)
        #expect(String(decoding: collection.bytes, as: UTF8.self).hasSuffix("host \(cohost.id)"))
    }

    @Test func adminsManageEveryMeetupAndSeeEverything() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees", as: fixture.admin).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/check-in-code", as: fixture.admin).status == 200)
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: fixture.admin, json: #"{"user_id": \#(member.id)}"#)
        #expect(checkIn.status == 201)
        #expect(fixture.get("/v1/rewards/\(try #require(checkIn["reward"]?["id"]?.intValue))", as: fixture.admin).status == 200)
        #expect(fixture.get("/v1/stats/shares", as: fixture.admin).status == 200)
        #expect(fixture.get("/metrics", as: fixture.admin).status == 200)
        let created = fixture.post("/v1/meetups", as: fixture.admin, json: """
            {"title": "For the host", "place_name": "Crag", "starts_at": "2026-12-05T09:00:00+09:00", "ends_at": "2026-12-05T17:00:00+09:00",
             "capacity": 12, "host_id": \(fixture.host.id)}
            """)
        #expect(created.status == 201)
        #expect(created["host_id"]?.intValue == fixture.host.id)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/cancel", as: fixture.admin).status == 200)
    }
}
