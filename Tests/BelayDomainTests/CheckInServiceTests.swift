@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct CheckInServiceTests {
    let fixture: DomainFixture
    let meetup: Meetup
    let member: User

    init() throws {
        fixture = try DomainFixture()
        meetup = try fixture.meetup(capacity: 2)
        member = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        // Into the meetup: the window is open.
        fixture.clock.set(meetup.startsAt.addingTimeInterval(600))
    }

    var checkIns: CheckInService { fixture.domain.checkIns }
    var memberActor: Actor { .user(member.id, role: .member) }

    func currentCode(at instant: Date? = nil) throws -> String {
        if let instant { fixture.clock.set(instant) }
        return try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: fixture.hostActor).code
    }

    func withCode(_ code: String, key: String? = nil) -> CheckInRequest {
        CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .code(code), idempotencyKey: key)
    }

    @Test func memberChecksInWithTheCurrentCodeAndGetsARewardAndARenderJob() throws {
        let result = try checkIns.checkIn(withCode(try currentCode()), by: memberActor)
        #expect(!result.isRepeat)
        #expect(result.attendance.status == .checkedIn)
        #expect(result.attendance.checkInMethod == .code)
        #expect(result.attendance.checkedInAt?.millisecondsSince1970 == fixture.clock.now().millisecondsSince1970)
        let reward = try #require(result.reward)
        #expect(reward.memberID == member.id)
        #expect(reward.renderStatus == .pending)
        #expect(reward.milestone == 1)
        #expect(reward.hold.id == "jug-gold")
        let jobs = try fixture.domain.renderJobs.jobs(rewardID: reward.id)
        #expect(jobs.map(\.status) == [.queued])
        #expect(jobs.map(\.reason) == [.award])
    }

    /// The queued variant, as the HTTP API uses it: the same outcomes, delivered to a completion.
    func checkInQueued(_ request: CheckInRequest, by actor: Actor) -> Result<CheckInResult, any Error> {
        let outcome = Mutex<Result<CheckInResult, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        checkIns.checkIn(request, by: actor) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }!
    }

    @Test func theQueuedCheckInGivesTheSameResultsRefusalsAndRepeats() throws {
        let code = try currentCode()
        let wrongCode = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
        let wrong = checkInQueued(withCode(wrongCode), by: memberActor)
        #expect((try? wrong.get()) == nil)
        #expect((wrong.failureError as? DomainError)?.reason == .badCode, "a refusal arrives as the same DomainError")
        let malformedKey = checkInQueued(withCode(try currentCode(), key: "no spaces allowed"), by: memberActor)
        #expect((malformedKey.failureError as? DomainError)?.reason == .invalidInput)

        let first = try checkInQueued(withCode(code), by: memberActor).get()
        #expect(!first.isRepeat && first.attendance.status == .checkedIn && first.reward != nil)
        let again = try checkInQueued(withCode(try currentCode()), by: memberActor).get()
        #expect(again.isRepeat && again.reward?.id == first.reward?.id)
        let sync = try checkIns.checkIn(withCode(try currentCode()), by: memberActor)
        #expect(sync.isRepeat && sync.reward?.id == first.reward?.id)
    }

    @Test func theSameCheckInSentFromManyThreadsAtOnceChecksInOnceWithOneReward() throws {
        let code = try currentCode()
        // A host checking the member in races the member's own requests, with and without a key.
        let results = Mutex<[CheckInResult]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            do {
                let result = index % 3 == 0
                    ? try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: fixture.hostActor)
                    : try checkIns.checkIn(withCode(code, key: index % 3 == 1 ? "key-\(index)" : nil), by: memberActor)
                results.withLock { $0.append(result) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let all = results.withLock { $0 }
        #expect(all.count == 12)
        #expect(all.filter { !$0.isRepeat }.count == 1)
        #expect(Set(all.compactMap { $0.reward?.id }).count == 1)
        #expect(all.allSatisfy { $0.attendance.status == .checkedIn })
        #expect(try fixture.domain.renderJobs.counts().queued == 1)
    }

    @Test func aRepeatReturnsTheFirstResultFlaggedAsARepeat() throws {
        let first = try checkIns.checkIn(withCode(try currentCode()), by: memberActor)
        fixture.clock.advance(by: 300)
        let again = try checkIns.checkIn(withCode(try currentCode()), by: memberActor)
        #expect(again.isRepeat)
        #expect(again.attendance == first.attendance)
        #expect(again.reward == first.reward)
        // Even a host's check-in of the same member, later, changes nothing.
        let byHost = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: fixture.hostActor)
        #expect(byHost.isRepeat)
        #expect(byHost.attendance.checkInMethod == .code)
        #expect(try fixture.domain.renderJobs.counts().queued == 1)
    }

    @Test func aRetryWithTheSameKeyAfterTheCodeRotatedReturnsTheFirstResult() throws {
        let firstCode = try currentCode()
        let first = try checkIns.checkIn(withCode(firstCode, key: "lost-answer"), by: memberActor)
        #expect(!first.isRepeat)
        // The app never saw the answer; by the time it retries the host shows a new code.
        fixture.clock.advance(by: 61)
        let rotated = try currentCode()
        #expect(rotated != firstCode)
        let retry = try checkIns.checkIn(withCode(rotated, key: "lost-answer"), by: memberActor)
        #expect(retry.isRepeat)
        #expect(retry.attendance == first.attendance)
        #expect(retry.reward?.id == first.reward?.id)
    }

    @Test func anIdempotencyKeyReplaysTheSameRequestAndRefusesADifferentOne() throws {
        let code = try currentCode()
        let first = try checkIns.checkIn(withCode(code, key: "key-1"), by: memberActor)
        fixture.clock.advance(by: 3_600) // the code has long expired, but the key matches
        let replay = try checkIns.checkIn(withCode(code, key: "key-1"), by: memberActor)
        #expect(replay.isRepeat)
        #expect(replay.attendance == first.attendance)
        // The same member and meetup with another code is the same check-in retried: the first result.
        #expect(try checkIns.checkIn(withCode("000000", key: "key-1"), by: memberActor).attendance == first.attendance)
        let other = try fixture.member()
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: other.id, proof: .code(code), idempotencyKey: "key-1"),
                                     by: memberActor)
        } == .idempotencyKeyReused)
        // Keys are per caller: another user's same key is a different key.
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: other.id, by: .commandLine)
        let otherResult = try checkIns.checkIn(
            CheckInRequest(meetupID: meetup.id, memberID: other.id, proof: .code(try currentCode()), idempotencyKey: "key-1"),
            by: .user(other.id, role: .member))
        #expect(!otherResult.isRepeat)
    }

    @Test func codesRotateAndOnlyTheCurrentAndPreviousStepAreAccepted() throws {
        let step = Double(BuiltInSettings.domain().checkIn.codeStepSeconds)
        let base = meetup.startsAt.addingTimeInterval(step * 10) // the start of a step
        let old = try currentCode(at: base)
        let previous = try currentCode(at: base.addingTimeInterval(step))
        let current = try currentCode(at: base.addingTimeInterval(2 * step + 1))
        #expect(Set([old, previous, current]).count == 3, "codes change every step")
        #expect(current.count == 6 && current.allSatisfy(\.isNumber))
        let code = try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: fixture.hostActor)
        #expect(code.validFrom == base.addingTimeInterval(2 * step))
        #expect(code.expiresAt == base.addingTimeInterval(3 * step))

        #expect(refusal { _ = try checkIns.checkIn(withCode(old), by: memberActor) } == .badCode)
        #expect(try checkIns.checkIn(withCode(previous), by: memberActor).attendance.status == .checkedIn)

        let other = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: other.id, by: .commandLine)
        let result = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: other.id, proof: .code(current)),
                                          by: .user(other.id, role: .member))
        #expect(result.attendance.status == .checkedIn)
    }

    @Test func withLessThanFiveSecondsLeftTheNextCodeIsShownAndAcceptedAlready() throws {
        let step = Double(BuiltInSettings.domain().checkIn.codeStepSeconds)
        let base = meetup.startsAt.addingTimeInterval(step * 10) // the start of a step
        let next = try currentCode(at: base.addingTimeInterval(step))
        // Six seconds left: the current code is shown.
        fixture.clock.set(base.addingTimeInterval(step - 6))
        let early = try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: fixture.hostActor, showingAhead: true)
        #expect(early.validFrom == base && !early.isAhead(of: fixture.clock.now()))
        // Four seconds left: the next one, current until the end of the next step.
        fixture.clock.set(base.addingTimeInterval(step - 4))
        let shown = try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: fixture.hostActor, showingAhead: true)
        #expect(shown.code == next)
        #expect(shown.validFrom == base.addingTimeInterval(step) && shown.expiresAt == base.addingTimeInterval(2 * step))
        #expect(shown.isAhead(of: fixture.clock.now()))
        #expect(try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: fixture.hostActor).validFrom == base,
                "without showing ahead, the current code")
        // Typed at once, before it is current, it is accepted.
        #expect(try checkIns.checkIn(withCode(shown.code), by: memberActor).attendance.status == .checkedIn)
    }

    @Test func theNextCodeIsRefusedEarlierThanFiveSecondsBeforeItsStep() throws {
        let step = Double(BuiltInSettings.domain().checkIn.codeStepSeconds)
        let base = meetup.startsAt.addingTimeInterval(step * 10)
        let next = try currentCode(at: base.addingTimeInterval(step))
        fixture.clock.set(base.addingTimeInterval(step - 6))
        #expect(refusal { _ = try checkIns.checkIn(withCode(next), by: memberActor) } == .badCode)
    }

    @Test func spacesAndTabsAroundACodeAreIgnoredButNotInsideIt() throws {
        let code = try currentCode()
        let spaced = String(code.prefix(3)) + " " + String(code.dropFirst(3))
        #expect(refusal { _ = try checkIns.checkIn(withCode(spaced), by: memberActor) } == .badCode)
        #expect(try checkIns.checkIn(withCode(" \t\(code) "), by: memberActor).attendance.status == .checkedIn)
    }

    @Test func codesDependOnTheMeetupSecret() throws {
        let second = try fixture.meetup(capacity: 2, startsIn: -600)
        let mine = try currentCode()
        let theirs = try fixture.domain.meetups.currentCheckInCode(meetupID: second.id, by: fixture.hostActor).code
        #expect(mine != theirs)
    }

    @Test func wrongCodesAreLimitedAndTheLockOutEnds() throws {
        let policy = BuiltInSettings.domain().checkIn
        let wrong = String(format: "%06d", (Int(try currentCode())! + 1) % 1_000_000)
        for attempt in 1..<policy.maxWrongAttempts {
            let error = try #require(throws: DomainError.self) { try checkIns.checkIn(withCode(wrong), by: memberActor) }
            #expect(error.reason == .badCode)
            #expect(error.message.contains("\(policy.maxWrongAttempts - attempt) attempts left"))
        }
        #expect(refusal { _ = try checkIns.checkIn(withCode(wrong), by: memberActor) } == .tooManyAttempts)
        // Locked out: even the right code is refused.
        #expect(refusal { _ = try checkIns.checkIn(withCode(try currentCode()), by: memberActor) } == .tooManyAttempts)
        fixture.clock.advance(by: Double(policy.lockoutMinutes * 60) - 1)
        #expect(refusal { _ = try checkIns.checkIn(withCode(try currentCode()), by: memberActor) } == .tooManyAttempts)
        // A host can always check the member in; but let the lock-out end instead.
        fixture.clock.advance(by: 1)
        #expect(try checkIns.checkIn(withCode(try currentCode()), by: memberActor).attendance.status == .checkedIn)
    }

    @Test func theAttemptLimitIsPerMemberAndMeetup() throws {
        let policy = BuiltInSettings.domain().checkIn
        let wrong = String(format: "%06d", (Int(try currentCode())! + 1) % 1_000_000)
        for _ in 0..<policy.maxWrongAttempts { _ = try? checkIns.checkIn(withCode(wrong), by: memberActor) }
        let other = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: other.id, by: .commandLine)
        let result = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: other.id, proof: .code(try currentCode())),
                                          by: .user(other.id, role: .member))
        #expect(result.attendance.status == .checkedIn)
        // And the host gets the locked-out member in.
        let byHost = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: fixture.hostActor)
        #expect(byHost.attendance.checkInMethod == .host)
        #expect(byHost.attendance.checkedInBy == fixture.host.id)
    }

    @Test func theWindowOpensBeforeTheStartAndClosesAfterTheEnd() throws {
        let policy = BuiltInSettings.domain().checkIn
        let opens = meetup.startsAt.addingTimeInterval(-Double(policy.opensMinutesBeforeStart) * 60)
        let closes = meetup.endsAt.addingTimeInterval(Double(policy.closesMinutesAfterEnd) * 60)
        let request = CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host)
        fixture.clock.set(opens.addingTimeInterval(-1))
        #expect(refusal { _ = try checkIns.checkIn(request, by: fixture.hostActor) } == .windowNotOpen)
        fixture.clock.set(closes)
        #expect(refusal { _ = try checkIns.checkIn(request, by: fixture.hostActor) } == .windowClosed)
        fixture.clock.set(opens)
        #expect(try checkIns.checkIn(request, by: fixture.hostActor).attendance.status == .checkedIn)
    }

    @Test func offlineCheckInsMustLieInsideTheWindow() throws {
        let policy = BuiltInSettings.domain().checkIn
        let closes = meetup.endsAt.addingTimeInterval(Double(policy.closesMinutesAfterEnd) * 60)
        fixture.clock.set(closes.addingTimeInterval(86_400)) // recorded the next day
        let tooEarly = meetup.startsAt.addingTimeInterval(-Double(policy.opensMinutesBeforeStart) * 60 - 1)
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .offline(at: tooEarly)), by: fixture.hostActor)
        } == .windowNotOpen)
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .offline(at: closes)), by: fixture.hostActor)
        } == .windowClosed)
        let inFuture = fixture.clock.now().addingTimeInterval(60)
        let future = try #require(throws: DomainError.self) {
            try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .offline(at: inFuture)), by: fixture.hostActor)
        }
        #expect(future.reason == .invalidInput)
        #expect(future.field == "checked_in_at")
        // A member cannot claim an offline check-in for themselves.
        let inside = meetup.startsAt.addingTimeInterval(120)
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .offline(at: inside)), by: memberActor)
        } == .notPermitted)
        let result = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .offline(at: inside)), by: fixture.hostActor)
        #expect(result.attendance.checkInMethod == .offline)
        #expect(result.attendance.checkedInAt == inside)
        #expect(result.reward != nil)
    }

    @Test func refusalsHaveStableReasons() throws {
        let code = try currentCode()
        let stranger = try fixture.member()
        #expect(refusal { _ = try checkIns.checkIn(CheckInRequest(meetupID: 999, memberID: member.id, proof: .host), by: fixture.hostActor) } == .meetupNotFound)
        #expect(refusal { _ = try checkIns.checkIn(withCode(code), by: .user(stranger.id, role: .member)) } == .notPermitted)
        #expect(refusal { _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: memberActor) } == .notPermitted)
        let otherHost = try fixture.domain.users.createUser(NewUser(handle: "other-host", displayName: "Other", role: .host))
        #expect(refusal { _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: .user(otherHost.id, role: .host)) } == .notPermitted)
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: stranger.id, proof: .code(code)), by: .user(stranger.id, role: .member))
        } == .notAttending)

        let (second, third) = (try fixture.member(), try fixture.member())
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: second.id, by: .commandLine)
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: third.id, by: .commandLine) // capacity 2: waitlisted
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: third.id, proof: .host), by: fixture.hostActor)
        } == .waitlisted)
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: second.id, by: .commandLine)
        #expect(refusal {
            _ = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: second.id, proof: .host), by: fixture.hostActor)
        } == .alreadyCancelled)
        #expect(refusal { _ = try checkIns.checkIn(withCode(code, key: String(repeating: "k", count: 201)), by: memberActor) } == .invalidInput)

        _ = try fixture.domain.meetups.cancel(id: meetup.id, by: fixture.hostActor)
        #expect(refusal { _ = try checkIns.checkIn(withCode(code), by: memberActor) } == .meetupCancelled)
        #expect(Set(RefusalReason.allCases.map(\.rawValue)).isSuperset(of: [
            "not_attending", "waitlisted", "already_cancelled", "window_not_open", "window_closed", "bad_code",
            "too_many_attempts", "meetup_cancelled", "meetup_not_found", "not_permitted", "idempotency_key_reused",
        ]))
    }

    @Test func undoRevokesTheRewardAndCheckingInAgainReinstatesIt() throws {
        let first = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host, idempotencyKey: "k"),
                                         by: fixture.hostActor)
        let reward = try #require(first.reward)
        #expect(refusal { _ = try checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: memberActor) } == .notPermitted)

        let undone = try checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: fixture.hostActor)
        #expect(undone.status == .going)
        #expect(undone.checkedInAt == nil)
        let revoked = try fixture.domain.rewards.reward(id: reward.id)
        #expect(revoked.isRevoked)
        #expect(try fixture.domain.rewards.rewards(memberID: member.id).items.isEmpty)
        #expect(try fixture.domain.rewards.rewards(memberID: member.id, includeRevoked: true).items.map(\.id) == [reward.id])
        #expect(try fixture.domain.renderJobs.jobs(rewardID: reward.id).map(\.status) == [.cancelled])
        #expect(refusal { _ = try checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: fixture.hostActor) } == .notCheckedIn)

        // The idempotency key was forgotten with the check-in it belonged to.
        let again = try checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host, idempotencyKey: "k"),
                                         by: fixture.hostActor)
        #expect(!again.isRepeat)
        #expect(again.reward?.id == reward.id)
        #expect(again.reward?.hold == reward.hold)
        #expect(again.reward?.isRevoked == false)
        #expect(try fixture.domain.renderJobs.jobs(rewardID: reward.id).map(\.status) == [.cancelled, .queued])
    }

    @Test func theCodeIsOnlyForTheHostOrAnAdmin() throws {
        #expect(refusal { _ = try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: memberActor) } == .notPermitted)
        #expect(try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: .commandLine).code.count == 6)
    }

    @Test func theCodeMatchesTheRFC6238TestVectorForSHA256() {
        // RFC 6238 appendix B: SHA-256, the 32-byte seed below, T = 59 s, step 30 s gives
        // 46119246 in 8 digits, so 119246 in 6.
        let generator = CheckInCodeGenerator(stepSeconds: 30)
        let secret = Array("12345678901234567890123456789012".utf8)
        #expect(generator.code(secret: secret, step: generator.step(at: Date(timeIntervalSince1970: 59))) == "119246")
        #expect(generator.code(secret: secret, step: 1) != generator.code(secret: secret, step: 2))
    }
}

extension Result {
    /// The error, or nil for a success.
    var failureError: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
