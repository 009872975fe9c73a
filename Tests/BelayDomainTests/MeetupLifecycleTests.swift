import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The meetup life-cycle: meetups complete when their check-in window closes, once, with an
/// event; past meetups are refused unless an admin records them, and then take who came.
@Suite struct MeetupLifecycleTests {
    let fixture: DomainFixture

    init() throws { fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true }) }

    private func pastDraft(endedAgo seconds: TimeInterval = 86_400) -> NewMeetup {
        let end = fixture.clock.now().addingTimeInterval(-seconds)
        return NewMeetup(title: "Last season", placeName: "Seoul Forest Gym", startsAt: end.addingTimeInterval(-7_200), endsAt: end,
                         timeZone: "Asia/Seoul", capacity: 20, hostID: fixture.host.id)
    }

    @Test func meetupsCompleteOnceWhenTheirCheckInWindowClosesWithAnEvent() throws {
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/", events: [.meetupCompleted], by: .commandLine)
        let meetups = fixture.domain.meetups
        let early = try fixture.meetup(startsIn: 600)
        let later = try fixture.meetup(startsIn: 86_400)
        let cancelled = try fixture.meetup(startsIn: 600)
        _ = try meetups.cancel(id: cancelled.id, by: fixture.hostActor)
        // Ended, but check-in stays open 120 minutes after the end.
        fixture.clock.set(early.endsAt.addingTimeInterval(119 * 60))
        #expect(try meetups.completeEnded().isEmpty)
        fixture.clock.set(early.endsAt.addingTimeInterval(120 * 60))
        #expect(try meetups.completeEnded().map(\.id) == [early.id])
        #expect(try meetups.completeEnded().isEmpty, "idempotent")
        #expect(try meetups.meetup(id: early.id).status == .completed)
        #expect(try meetups.meetup(id: later.id).status == .scheduled)
        #expect(try meetups.meetup(id: cancelled.id).status == .cancelled)
        // Batches: the limit is honoured and the rest comes next time.
        fixture.clock.set(later.endsAt.addingTimeInterval(3 * 3_600))
        #expect(try meetups.completeEnded(limit: 1).map(\.id) == [later.id])
        var events: [String] = []
        while let attempt = try fixture.domain.webhooks.claim(owner: "t:1:a") {
            events.append(attempt.eventType)
            try fixture.domain.webhooks.report(attempt, WebhookAttemptResult(statusCode: 200, error: nil))
        }
        #expect(events == ["meetup.completed", "meetup.completed"])
    }

    @Test func aMeetupThatEndedIsRefusedUnlessAnAdminRecordsIt() throws {
        let meetups = fixture.domain.meetups
        let refused = try #require(throws: DomainError.self) { try meetups.create(pastDraft(), by: fixture.hostActor) }
        #expect(refused.reason == .invalidInput)
        #expect(refused.field == "ends_at")
        #expect(refused.message.contains("record_past: true (API) or --past (CLI)"))
        #expect(refusal { _ = try meetups.create(pastDraft(), recordPast: true, by: fixture.hostActor) } == .notPermitted)
        let future = try #require(throws: DomainError.self) {
            var draft = pastDraft()
            draft.startsAt = fixture.clock.now().addingTimeInterval(3_600)
            draft.endsAt = fixture.clock.now().addingTimeInterval(7_200)
            return try meetups.create(draft, recordPast: true, by: .commandLine)
        }
        #expect(future.field == "record_past")

        let recorded = try meetups.create(pastDraft(), recordPast: true, by: .commandLine)
        #expect(recorded.status == .completed, "its check-in window closed long ago")
        // A meetup that ended an hour ago still has its window open: it stays scheduled.
        #expect(try meetups.create(pastDraft(endedAgo: 3_600), recordPast: true, by: .commandLine).status == .scheduled)
    }

    @Test func adminsAddWhoCameToAPastMeetupAndCheckThemInAtTheTime() throws {
        let meetup = try fixture.domain.meetups.create(pastDraft(), recordPast: true, by: .commandLine)
        let member = try fixture.member()
        let attendance = fixture.domain.attendance
        #expect(refusal { _ = try attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)) } == .meetupCompleted)
        let joined = try attendance.join(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        #expect(joined.attendance.status == .going)
        let at = meetup.startsAt.addingTimeInterval(900)
        let result = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .offline(at: at)),
                                                         by: .commandLine)
        #expect(result.attendance.checkedInAt == at)
        #expect(result.reward != nil, "the reward is awarded as for a live check-in")
        // A meetup completed before its end still takes no one, not even from an admin.
        let early = try fixture.meetup(startsIn: 3_600)
        _ = try fixture.domain.meetups.complete(id: early.id, by: .commandLine)
        #expect(refusal { _ = try attendance.join(meetupID: early.id, memberID: member.id, by: .commandLine) } == .meetupCompleted)
    }
}
