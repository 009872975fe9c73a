import BelayCore
import BelayDomain
import BelayPush
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// A kind of notice is wired by its declaration and its words alone: a throwaway kind, declared
/// here in the test target and added to a club's catalogue and to the wording, is listed among
/// a member's switches, obeys its default, goes out at its priority, and reaches an iPhone
/// worded in the phone's language, while a club without it refuses it by name.
@Suite(.serialized) struct ThrowawayNoticeKindTests {
    /// A cheer from another climber: off until a member asks for it, and pressing once asked for.
    static let cheer = NoticeKind("throwaway_cheer", priority: .high, onByDefault: false)
    static let cheerer = NoticeFacts.Key("cheerer")
    static let wording = NoticeWording.belay.adding(cheer) { facts, locale in
        let who = facts[text: cheerer] ?? ""
        return switch locale {
        case .en: NoticeText(title: "A cheer from \(who)", body: "Keep climbing!")
        case .ko: NoticeText(title: "\(who)님의 응원", body: "계속 올라요!")
        case .ja: NoticeText(title: "\(who)さんからの応援", body: "登り続けよう！")
        }
    }

    @Test func aKindDeclaredInTheTestTargetIsListedSwitchedSentAndWorded() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-kind")
        let services = try PushServicesProcess(in: directory)
        let pool = try TestDatabase.migratedStore(sqlitePath: directory.file("belay.sqlite"),
                                                  migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        let settings = BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
            $0.push.kinds = NoticeKinds.belay.adding(Self.cheer)
        }
        let domain = try DomainServices(pool: pool, clock: SystemTimeSource(), settings: settings)
        let ana = try domain.users.createUser(NewUser(handle: "ana", displayName: "Ana"))
        _ = try domain.push.register(DeviceRegistration(platform: .ios, token: "ana-iphone", appID: "club.belay.app", locale: .ko),
                                     userID: ana.id, sessionID: nil)
        func cheerAna() throws -> [Int64] {
            try domain.push.tell(Self.cheer, memberID: ana.id, collapseID: "cheer-\(UUID().uuidString)", expiresAt: Date().addingTimeInterval(600),
                                 path: "/me", ids: [("from", .string("ben"))]) { _ in
                var facts = NoticeFacts()
                facts[text: Self.cheerer] = "Ben"
                return facts
            }
        }

        // Listed among the member's switches, after Belay's own, off by its declaration.
        let listed = try domain.push.settings(userID: ana.id)
        #expect(listed.last?.kind == Self.cheer && listed.last?.enabled == false, "\(listed.map(\.kind.rawValue))")
        #expect(try cheerAna().isEmpty, "off until Ana switches it on")

        // Switched on by its name, as the API takes it; then it is queued at its priority.
        _ = try domain.push.updateSettings(userID: ana.id, [(try domain.push.switchableKind(named: "throwaway_cheer"), true)])
        let queued = try cheerAna()
        #expect(queued.count == 1)
        let priority = try pool.read { db in
            try db.queryOne("SELECT priority FROM push_notices WHERE id = ?", [queued[0]]) { try $0.get("priority", as: Int64.self) }
        }
        #expect(priority == Int64(NoticePriority.high.rawValue))

        // Claimed as its kind, worded by its words in the phone's language, sent through APNs.
        #expect(NoticeWording.belay.unworded(settings.push.kinds) == [Self.cheer], "Belay's words alone leave it unworded")
        #expect(Self.wording.unworded(settings.push.kinds).isEmpty)
        let deliveries = try domain.push.claim(owner: "test:1:push", limit: 10)
        #expect(deliveries.map(\.kind) == [Self.cheer])
        let apns = try APNsClient(settings: try services.apnsClient(clock: SystemTimeSource()).settings, clock: SystemTimeSource(),
                                  wording: Self.wording)
        #expect(apns.send(deliveries) == [.sent(status: 200)])
        let sent = try #require(try services.apns(token: "ana-iphone").first?["payload"] as? [String: Any])
        let aps = try #require(sent["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: String]) == ["title": "Ben님의 응원", "body": "계속 올라요!"], "\(sent)")
        #expect(aps["thread-id"] as? String == "throwaway_cheer")
        #expect(sent["kind"] as? String == "throwaway_cheer" && sent["from"] as? String == "ben" && sent["link"] as? String == "https://club.example/me")
        #expect(sent["facts"] == nil && sent["locale"] == nil, "what the words are made of stays in the outbox: \(sent)")
    }

    @Test func aClubWithoutTheKindRefusesItByName() throws {
        let fixture = try PushWorkerFixture()
        #expect(throws: DomainError.self) { try fixture.domain.push.switchableKind(named: "throwaway_cheer") }
        #expect(throws: DomainError.self) {
            try fixture.domain.push.tell(Self.cheer, memberID: fixture.member.id, collapseID: "cheer", expiresAt: Date().addingTimeInterval(60),
                                         path: "/") { _ in NoticeFacts() }
        }
        #expect(try fixture.domain.push.settings(userID: fixture.member.id).map(\.kind) == NoticeKinds.belay.switchable)
    }

    /// A member cannot switch off what the club always sends: a moderator's notice, or a test.
    @Test func kindsAlwaysSentCannotBeSwitched() throws {
        let fixture = try PushWorkerFixture()
        for name in ["moderation", "test"] {
            let kind = try #require(NoticeKinds.belay.named(name))
            #expect(throws: DomainError.self) { try fixture.domain.push.switchableKind(named: name) }
            #expect(throws: DomainError.self) { try fixture.domain.push.updateSettings(userID: fixture.member.id, [(kind, false)]) }
        }
        #expect(NoticeWording.belay.unworded(NoticeKinds.belay).isEmpty, "every kind of Belay's has its words")
    }

    /// A notice an earlier Belay queued with its words already written keeps them after an
    /// upgrade; one queued now is worded from its facts, and neither gives the app the facts.
    @Test func aNoticeQueuedWithItsWordsKeepsThem() throws {
        let earlier = NoticeWording.belay.shown(.waitlistOfferExpired, stored: Array(#"""
            {"kind":"waitlist_offer_expired","title":"Your offer ran out","body":"Night session: gone","link":"https://club.example/meetups/7","meetup_id":7}
            """#.utf8))
        #expect(earlier["title"] == "Your offer ran out" && earlier["body"] == "Night session: gone" && earlier["meetup_id"] == 7)
        let now = NoticeWording.belay.shown(.waitlistOfferExpired, stored: Array(#"""
            {"kind":"waitlist_offer_expired","link":"https://club.example/meetups/7","meetup_id":7,"locale":"ja","facts":{"meetup_title":"Night session"}}
            """#.utf8))
        #expect(now["title"] == "オファーの期限が切れました" && now["body"]?.stringValue?.hasPrefix("Night session：") == true, "\(now)")
        #expect(now.keys == ["title", "body", "kind", "link", "meetup_id"])
    }
}
