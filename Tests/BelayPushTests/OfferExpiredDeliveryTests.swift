import BelayCore
import BelayDomain
import BelayPush
import BelayStorage
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one notice the end-to-end journey cannot wait for on the wall clock: a waitlist offer
/// that runs out unclaimed (the claim window is at least a minute). On the injected clock the
/// offer is made, runs out and passes to the next in line, and the push worker delivers both
/// "offer expired" notices through the loopback APNs and FCM, in each member's language.
@Suite(.serialized) struct OfferExpiredDeliveryTests {
    @Test func anOfferThatRunsOutTellsItsMemberOnAPNsAndFCM() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-offer")
        let services = try PushServicesProcess(in: directory)
        let pool = try TestDatabase.migratedStore(sqlitePath: directory.file("belay.sqlite"),
                                                  migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        let clock = ManualTimeSource(Date())
        let settings = BuiltInSettings.domain {
            $0.waitlist.claimMinutes = 30
            $0.waitlist.cutoffMinutes = 60
            $0.push.publicBaseURL = "https://club.example"
            $0.push.defaultLocale = .en
            // As if APNs and FCM were configured: devices of both platforms are told.
            $0.push.platforms = Set(DevicePlatform.allCases)
        }
        let domain = try DomainServices(pool: pool, clock: clock, settings: settings)

        let host = try domain.users.createUser(NewUser(handle: "host1", displayName: "Host", role: .host))
        let cat = try domain.users.createUser(NewUser(handle: "cat", displayName: "Cat"))
        let ana = try domain.users.createUser(NewUser(handle: "ana", displayName: "Ana"))
        let ben = try domain.users.createUser(NewUser(handle: "ben", displayName: "Ben"))
        _ = try domain.push.register(DeviceRegistration(platform: .ios, token: "ana-iphone", appID: "club.belay.app", locale: .ko),
                                     userID: ana.id, sessionID: nil)
        _ = try domain.push.register(DeviceRegistration(platform: .android, token: "ben-pixel", appID: "club.belay.app", locale: .en),
                                     userID: ben.id, sessionID: nil)
        let start = clock.now().addingTimeInterval(6 * 3_600)
        let meetup = try domain.meetups.create(
            NewMeetup(title: "Night session", placeName: "더클라임 강남점", startsAt: start, endsAt: start.addingTimeInterval(7_200),
                      timeZone: "Asia/Seoul", capacity: 1, hostID: host.id),
            by: .user(host.id, role: .host))
        for member in [cat, ana, ben] {
            _ = try domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        // Cat leaves: Ana is offered the place; unclaimed, it passes to Ben, and his runs out too.
        _ = try domain.attendance.leave(meetupID: meetup.id, memberID: cat.id, by: .user(cat.id, role: .member))
        clock.advance(by: 31 * 60)
        #expect(try domain.attendance.expireOffers() == 1)
        clock.advance(by: 31 * 60)
        #expect(try domain.attendance.expireOffers() == 1)

        // The services check the provider and access tokens against the wall clock, so the
        // clients keep the system's; the worker decides what is due and past use on the domain's.
        let apns = try services.apnsClient(clock: SystemTimeSource())
        let fcm = try services.fcmClient(clock: SystemTimeSource())
        let worker = PushDeliveryWorker(service: domain.push, gateways: [.ios: apns, .android: fcm], clock: clock, owner: "test:1:push",
                                        pollSeconds: 0.05, metrics: PushMetrics(registry: MetricsRegistry()), log: { _ in })
        worker.start()
        defer { worker.stop() }
        func kinds(_ messages: [[String: Any]], _ key: String) -> [String] {
            messages.compactMap { ($0[key] as? [String: Any])?["kind"] as? String }
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if kinds(try services.apns(token: "ana-iphone"), "payload").contains("waitlist_offer_expired"),
               kinds(try services.fcm(token: "ben-pixel"), "data").contains("waitlist_offer_expired") { break }
            usleep(100_000)
        }

        let anaRequests = try services.apns(token: "ana-iphone")
        // The offers themselves ran out before the worker ran: past their use, they are dropped.
        #expect(kinds(anaRequests, "payload") == ["waitlist_offer_expired"], "\(anaRequests)")
        let expired = try #require(anaRequests.first { ($0["payload"] as? [String: Any])?["kind"] as? String == "waitlist_offer_expired" })
        #expect(expired["verified"] as? Bool == true && expired["http_version"] as? String == "2")
        let headers = try #require(expired["headers"] as? [String: String])
        #expect(headers["apns-topic"] == "club.belay.app")
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-collapse-id"]?.isEmpty == false)
        let payload = try #require(expired["payload"] as? [String: Any])
        let alert = try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert["title"] == "제안이 끝났어요", "Ana's phone speaks Korean: \(alert)")
        #expect(alert["body"] == "Night session: 다음 분께 자리가 넘어갔어요. 다시 참가하면 대기열에 들어가요.", "\(alert)")
        #expect(payload["link"] as? String == "https://club.example/meetups/\(meetup.id)")

        let benMessages = try services.fcm(token: "ben-pixel")
        #expect(kinds(benMessages, "data") == ["waitlist_offer_expired"], "\(benMessages)")
        let benExpired = try #require(benMessages.first { ($0["data"] as? [String: Any])?["kind"] as? String == "waitlist_offer_expired" })
        let notification = try #require(benExpired["notification"] as? [String: String])
        #expect(notification["title"] == "Your offer ran out", "\(notification)")
        #expect(notification["body"] == "Night session: the place went to the next climber. Join again to queue up.", "\(notification)")
        #expect((benExpired["data"] as? [String: String])?["meetup_id"] == "\(meetup.id)")
        #expect(((benExpired["android"] as? [String: Any])?["collapse_key"] as? String)?.isEmpty == false)
    }
}
