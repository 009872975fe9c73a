import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// Waitlist offers: a freed place is offered to the first in line for the claim window,
/// passes on when unclaimed, goes at once after the cutoff, and the capacity holds however
/// many threads and processes join, leave, claim and expire at once.
@Suite struct WaitlistOfferTests {
    static let policy = WaitlistPolicy(claimMinutes: 30, cutoffMinutes: BuiltInSettings.domain().waitlist.cutoffMinutes)
    let fixture: DomainFixture

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true; $0.waitlist = Self.policy })
    }

    private func join(_ member: User, _ meetup: Meetup) throws -> Attendance {
        try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)).attendance
    }

    private func leave(_ member: User, _ meetup: Meetup) throws -> LeaveResult {
        try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
    }

    private func attendance(_ member: User, _ meetup: Meetup) throws -> Attendance {
        try #require(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id))
    }

    private func claim(_ member: User, _ meetup: Meetup) throws -> Attendance {
        try fixture.domain.attendance.claim(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
    }

    /// Going members plus open offers, and whether someone waits without an offer while a place is free.
    static func invariant(_ pool: any DatabaseStore, meetupID: Int64, capacity: Int) throws -> (held: Int, idlePlace: Bool) {
        try pool.read { db in
            let going = try db.scalar("SELECT count(*) FROM attendances WHERE meetup_id = ? AND status IN ('going', 'checked_in')", [meetupID], as: Int.self) ?? 0
            let offers = try db.scalar("SELECT count(*) FROM attendances WHERE meetup_id = ? AND status = 'waitlisted' AND offer_expires_at IS NOT NULL",
                                       [meetupID], as: Int.self) ?? 0
            let waiting = try db.scalar("SELECT count(*) FROM attendances WHERE meetup_id = ? AND status = 'waitlisted' AND offer_expires_at IS NULL",
                                        [meetupID], as: Int.self) ?? 0
            return (going + offers, going + offers < capacity && waiting > 0)
        }
    }

    @Test func aFreedPlaceIsOfferedClaimedAndNeverGivenTwice() throws {
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/", events: [.attendancePromoted, .attendanceOfferExpired], by: .commandLine)
        let meetup = try fixture.meetup(capacity: 1, startsIn: 86_400)
        let (first, second, third, late) = (try fixture.member(), try fixture.member(), try fixture.member(), try fixture.member())
        _ = try join(first, meetup)
        _ = try join(second, meetup)
        _ = try join(third, meetup)

        let left = try leave(first, meetup)
        #expect(left.promoted.isEmpty, "an offer, not a promotion")
        let offered = try attendance(second, meetup)
        #expect(offered.status == .waitlisted)
        #expect(offered.offerExpiresAt == fixture.clock.now().addingTimeInterval(1_800))
        #expect(try attendance(third, meetup).offerExpiresAt == nil)
        // The offered place is taken: a newcomer waits, the third in line cannot claim it.
        #expect(try join(late, meetup).status == .waitlisted)
        #expect(refusal { _ = try claim(third, meetup) } == .noOffer)
        #expect(refusal { _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: second.id, proof: .host),
                                                                  by: fixture.hostActor) } == .waitlisted)

        fixture.clock.advance(by: 1_799)
        #expect(try claim(second, meetup).status == .going)
        #expect(try claim(second, meetup).status == .going, "claiming again answers the same")
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).goingCount == 1)
        var events: [String] = []
        while let attempt = try fixture.domain.webhooks.claim(owner: "t:1:a") {
            events.append(attempt.eventType)
            try fixture.domain.webhooks.report(attempt, WebhookAttemptResult(statusCode: 200, error: nil))
        }
        #expect(events == ["attendance.promoted"])
    }

    @Test func anUnclaimedOfferExpiresAndPassesToTheNextWithAnEvent() throws {
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/", events: [.attendanceOfferExpired], by: .commandLine)
        let meetup = try fixture.meetup(capacity: 1, startsIn: 86_400)
        let (first, second, third) = (try fixture.member(), try fixture.member(), try fixture.member())
        for member in [first, second, third] { _ = try join(member, meetup) }
        _ = try leave(first, meetup)
        fixture.clock.advance(by: 1_800)
        #expect(try fixture.domain.attendance.expireOffers() == 1)
        #expect(try fixture.domain.attendance.expireOffers() == 0, "idempotent")
        #expect(try attendance(second, meetup).status == .cancelled)
        #expect(try attendance(third, meetup).offerExpiresAt == fixture.clock.now().addingTimeInterval(1_800))
        #expect(refusal { _ = try claim(second, meetup) } == .noOffer)
        // A claim after the window fails even before the scheduler passes the offer on.
        fixture.clock.advance(by: 1_801)
        #expect(refusal { _ = try claim(third, meetup) } == .noOffer)
        #expect(try fixture.domain.attendance.expireOffers() == 1)
        #expect(try attendance(third, meetup).status == .cancelled)
        let attempt = try #require(try fixture.domain.webhooks.claim(owner: "t:1:a"))
        #expect(attempt.eventType == "attendance.offer_expired")
    }

    @Test func decliningPassesTheOfferOnAndAfterTheCutoffPlacesGoAtOnce() throws {
        let meetup = try fixture.meetup(capacity: 1, startsIn: 3 * 3_600)
        let (first, second, third, fourth) = (try fixture.member(), try fixture.member(), try fixture.member(), try fixture.member())
        for member in [first, second, third, fourth] { _ = try join(member, meetup) }
        _ = try leave(first, meetup)
        #expect(try attendance(second, meetup).offerExpiresAt != nil)
        _ = try leave(second, meetup) // declining the offer
        #expect(try attendance(third, meetup).offerExpiresAt != nil)
        _ = try claim(third, meetup)
        // Within two hours of the start there is no time to claim: the next place goes at once.
        fixture.clock.advance(by: 3_601)
        let left = try leave(third, meetup)
        #expect(left.promoted.map(\.memberID) == [fourth.id])
        #expect(try attendance(fourth, meetup).status == .going)
    }

    @Test func raisingTheCapacityOffersThePlaces() throws {
        let meetup = try fixture.meetup(capacity: 1, startsIn: 86_400)
        let members = try (0..<4).map { _ in try fixture.member() }
        for member in members { _ = try join(member, meetup) }
        var changes = MeetupChanges()
        changes.capacity = 3
        _ = try fixture.domain.meetups.update(id: meetup.id, changes, by: fixture.hostActor)
        #expect(try members.map { try attendance($0, meetup).offerExpiresAt != nil } == [false, true, true, false])
        #expect(try Self.invariant(fixture.pool, meetupID: meetup.id, capacity: 3) == (3, false))
    }

    @Test func capacityHoldsUnderConcurrentJoinsLeavesClaimsAndExpiries() throws {
        let capacity = 4
        let meetup = try fixture.meetup(capacity: capacity, startsIn: 86_400)
        let members = try (0..<40).map { _ in try fixture.member() }
        let failures = Mutex<[String]>([])
        let running = Atomic<Bool>(true)
        let reader = Thread { [pool = fixture.pool] in
            while running.load(ordering: .relaxed) {
                if let (held, _) = try? Self.invariant(pool, meetupID: meetup.id, capacity: capacity), held > capacity {
                    failures.withLock { $0.append("\(held) places held of \(capacity)") }
                }
            }
        }
        reader.start()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<3 {
                for index in stride(from: thread, to: members.count, by: 8) {
                    let member = members[index]
                    _ = try? join(member, meetup)
                    _ = try? claim(member, meetup)
                    if (index + round) % 3 == 0 { _ = try? leave(member, meetup) }
                    if index % 10 == 0 {
                        fixture.clock.advance(by: 600)
                        _ = try? fixture.domain.attendance.expireOffers()
                    }
                }
            }
        }
        running.store(false, ordering: .relaxed)
        while reader.isExecuting { Thread.sleep(forTimeInterval: 0.001) }
        #expect(failures.withLock { $0 } == [])
        let (held, idle) = try Self.invariant(fixture.pool, meetupID: meetup.id, capacity: capacity)
        #expect(held <= capacity)
        #expect(!idle, "no place stays free while someone waits without an offer")
        let counts = try fixture.domain.meetups.meetup(id: meetup.id)
        #expect(counts.goingCount <= capacity)
    }

    /// Runs in a child process started by `capacityHoldsAcrossProcesses`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BELAY_TEST_OFFER_DATABASE"] != nil))
    func offersFromChildProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["BELAY_TEST_OFFER_DATABASE"])
        let meetupID = try #require(environment["BELAY_TEST_OFFER_MEETUP"].flatMap { Int64($0) })
        let memberIDs = try #require(environment["BELAY_TEST_OFFER_MEMBERS"]).split(separator: ",").compactMap { Int64($0) }
        let pool = try TestDatabase.reopen(path)
        let domain = try DomainServices(pool: pool, clock: ManualTimeSource(DomainFixture.start), settings: BuiltInSettings.domain { $0.waitlist = Self.policy })
        _ = readLine()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in stride(from: thread, to: memberIDs.count, by: 4) {
                let id = memberIDs[index]
                _ = try? domain.attendance.join(meetupID: meetupID, memberID: id, by: .commandLine)
                _ = try? domain.attendance.claim(meetupID: meetupID, memberID: id, by: .commandLine)
                if index % 2 == 0 { _ = try? domain.attendance.leave(meetupID: meetupID, memberID: id, by: .commandLine) }
            }
        }
    }

    @Test func capacityHoldsAcrossProcesses() throws {
        let capacity = 5
        let meetup = try fixture.meetup(capacity: capacity, startsIn: 86_400)
        let members = try (0..<36).map { _ in try fixture.member() }
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var children: [(Process, Pipe)] = []
        for child in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: testBinary)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "offersFromChildProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment["BELAY_TEST_OFFER_DATABASE"] = fixture.pool.location
            environment["BELAY_TEST_OFFER_MEETUP"] = String(meetup.id)
            environment["BELAY_TEST_OFFER_MEMBERS"] = members[(child * 12)..<(child * 12 + 12)].map { String($0.id) }.joined(separator: ",")
            process.environment = environment
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            children.append((process, input))
        }
        for (_, input) in children {
            try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
            try input.fileHandleForWriting.close()
        }
        for (process, _) in children {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let (held, idle) = try Self.invariant(fixture.pool, meetupID: meetup.id, capacity: capacity)
        #expect(held == capacity, "18 members stayed for 5 places: every place is held")
        #expect(!idle)
    }
}
