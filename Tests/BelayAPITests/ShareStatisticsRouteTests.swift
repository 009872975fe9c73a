import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// `GET /v1/stats/shares`: a host's meetups only, paged with a cursor the database continues from.
@Suite struct ShareStatisticsRouteTests {
    @Test func aHostPagesThroughTheirOwnMeetupsAndAnAdminSeesAll() throws {
        let fixture = try APIFixture()
        let otherHost = try fixture.member(role: .host, name: "other-host")
        let member = try fixture.member()
        var mine: [Int64] = [], theirs: [Int64] = []
        var count = 0
        for index in 0..<4 {
            let host = index.isMultiple(of: 2) ? fixture.host : otherHost
            let meetup = try fixture.meetup(startsIn: 0, host: host)
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: member.user.actorForTests)
            let reward = try #require(try fixture.domain.checkIns.checkIn(
                CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: host.user.actorForTests).reward)
            for target in ["instagram_stories", "share_sheet"] {
                count += 1
                _ = try fixture.domain.shares.record(NewShareEvent(rewardID: reward.id, target: target, activityType: nil, completed: true,
                                                                   error: nil, clientEventID: "e\(count)"), by: member.user.actorForTests)
            }
            if host.id == fixture.host.id { mine.append(meetup.id) } else { theirs.append(meetup.id) }
        }

        func allPages(as caller: APIFixture.Member) throws -> [String] {
            var rows: [String] = []
            var cursor: String?
            repeat {
                let response = fixture.get("/v1/stats/shares?limit=1" + (cursor.map { "&cursor=\($0)" } ?? ""), as: caller)
                #expect(response.status == 200)
                let items = try #require(response["items"]?.arrayValue)
                #expect(items.count == 1)
                rows += items.map { "\($0["meetup_id"]?.intValue ?? 0):\($0["target"]?.stringValue ?? "")" }
                cursor = response["next_cursor"]?.stringValue
            } while cursor != nil
            return rows
        }
        #expect(try allPages(as: fixture.host) == mine.flatMap { ["\($0):instagram_stories", "\($0):share_sheet"] })
        #expect(try allPages(as: fixture.admin) == (mine + theirs).sorted().flatMap { ["\($0):instagram_stories", "\($0):share_sheet"] })
        let whole = fixture.get("/v1/stats/shares", as: otherHost)
        #expect(whole["items"]?.arrayValue?.compactMap { $0["meetup_id"]?.intValue } == theirs.flatMap { [$0, $0] })
        #expect(whole["next_cursor"] == .null)

        let offsetCursor = Data("share-stats:1".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        for cursor in ["nonsense", offsetCursor] {
            let refused = fixture.get("/v1/stats/shares?cursor=\(cursor)", as: fixture.host)
            #expect(refused.status == 400)
            #expect(refused.problemCode == "invalid_cursor")
        }
    }
}
