import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct ShareServiceTests {
    let fixture: DomainFixture
    let member: User
    let reward: Reward

    init() throws {
        fixture = try DomainFixture()
        member = try fixture.member()
        let meetup = try fixture.meetup()
        fixture.clock.advance(by: 3_600)
        reward = try #require(try fixture.checkedIn(member, at: meetup).reward)
    }

    var shares: ShareService { fixture.domain.shares }
    var actor: Actor { .user(member.id, role: .member) }

    @Test(arguments: [
        ("instagram_stories", nil, ShareTarget.instagramStories),
        ("Instagram", nil, .instagramStories),
        ("instagram-stories", nil, .instagramStories),
        ("facebook_stories", nil, .facebookStories),
        ("share_sheet", "com.apple.UIKit.activity.SaveToCameraRoll", .shareSheet),
        ("Share Sheet", nil, .shareSheet),
        (nil, "com.burbn.instagram.shareextension", .shareSheet),
        (nil, nil, .other),
        ("carrier-pigeon", nil, .other),
    ] as [(String?, String?, ShareTarget)])
    func targetsAreNormalised(target: String?, activityType: String?, expected: ShareTarget) {
        #expect(ShareTarget.normalise(target: target, activityType: activityType) == expected)
    }

    @Test func recordsTheEventAsReportedAndDedupesRetries() throws {
        let event = NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: "com.apple.UIKit.activity.SaveToCameraRoll",
                                  completed: true, clientEventID: "evt-1")
        let first = try shares.record(event, by: actor)
        #expect(!first.isRepeat)
        #expect(first.event.target == .shareSheet)
        #expect(first.event.activityType == "com.apple.UIKit.activity.SaveToCameraRoll")
        #expect(first.event.meetupID == reward.meetupID)
        fixture.clock.advance(by: 5)
        let retry = try shares.record(event, by: actor)
        #expect(retry.isRepeat)
        #expect(retry.event == first.event)
        let count = try fixture.pool.read { try $0.scalar("SELECT count(*) FROM share_events", as: Int64.self) }
        #expect(count == 1)

        let dismissed = try shares.record(NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: nil,
                                                        completed: false, clientEventID: "evt-2"), by: actor)
        #expect(dismissed.event.activityType == nil)
        #expect(!dismissed.isRepeat)
    }

    @Test func onlyTheOwnerRecordsAndInputIsChecked() throws {
        let stranger = try fixture.member()
        #expect(refusal { _ = try shares.record(NewShareEvent(rewardID: reward.id, target: "instagram_stories", activityType: nil, completed: true, clientEventID: "x"), by: .user(stranger.id, role: .member)) } == .rewardNotFound)
        #expect(refusal { _ = try shares.record(NewShareEvent(rewardID: 999, target: "instagram_stories", activityType: nil, completed: true, clientEventID: "x"), by: actor) } == .rewardNotFound)
        let error = try #require(throws: DomainError.self) {
            try shares.record(NewShareEvent(rewardID: reward.id, target: nil, activityType: nil, completed: true, clientEventID: ""), by: actor)
        }
        #expect(error.field == "client_event_id")
    }

    @Test func aClientEventIDWithANulIsRefusedNotMergedWithAnother() throws {
        let first = try shares.record(NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: nil, completed: true,
                                                    clientEventID: "s1"), by: actor)
        let error = try #require(throws: DomainError.self) {
            try shares.record(NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: nil, completed: false,
                                            clientEventID: "s1\u{0}zzz"), by: actor)
        }
        #expect(error.reason == .invalidInput)
        #expect(error.field == "client_event_id")
        #expect(try shares.record(NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: nil, completed: true,
                                                clientEventID: "s1"), by: actor).event.id == first.event.id)
    }

    @Test func statisticsArePerMeetupTargetAndClubDay() throws {
        // 2026-11-29T14:30:00Z is 23:30 in Seoul; 15:30Z is already 00:30 on the 30th there.
        fixture.clock.set(Date(timeIntervalSince1970: 1_795_962_600))
        _ = try shares.record(NewShareEvent(rewardID: reward.id, target: "instagram_stories", activityType: nil, completed: true, clientEventID: "a"), by: actor)
        _ = try shares.record(NewShareEvent(rewardID: reward.id, target: "instagram_stories", activityType: nil, completed: false, error: "Instagram not installed", clientEventID: "b"), by: actor)
        _ = try shares.record(NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: nil, completed: false, clientEventID: "c"), by: actor)
        fixture.clock.advance(by: 3_600)
        _ = try shares.record(NewShareEvent(rewardID: reward.id, target: "instagram", activityType: nil, completed: true, clientEventID: "d"), by: actor)
        _ = try shares.record(NewShareEvent(rewardID: reward.id, target: "instagram", activityType: nil, completed: true, clientEventID: "d"), by: actor)

        let statistics = try shares.statistics(meetupID: reward.meetupID)
        #expect(statistics.map { "\($0.day) \($0.target.rawValue) \($0.events)/\($0.completed)/\($0.failed)/\($0.dismissed)" } == [
            "2026-11-29 instagram_stories 2/1/1/0",
            "2026-11-29 share_sheet 1/0/0/1",
            "2026-11-30 instagram_stories 1/1/0/0",
        ])
        #expect(statistics.allSatisfy { $0.meetupTitle == "Evening bouldering" })
        #expect(try shares.statistics(meetupID: 999).isEmpty)
        #expect(try shares.statistics(from: fixture.clock.now()).count == 1, "from is inclusive")
        #expect(try shares.statistics(from: fixture.clock.now().addingTimeInterval(0.001)).isEmpty)
        #expect(try shares.statistics(to: fixture.clock.now()).count == 2, "to is exclusive")
    }
}
