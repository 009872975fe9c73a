import BelayCore
import BelayDomain
@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct CollectionServiceTests {
    final class Counter: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// Writes the request as text, so tests can read what would have been drawn.
    final class FakeCollectionRenderer: CollectionImageRenderer {
        let renders: Counter
        init(renders: Counter) { self.renders = renders }

        func contentKey(for request: CollectionRequest) throws -> ContentKey {
            ContentKey(canonical: "collection/\(request.scale)/\(request.content.memberName)/" + request.content.items.map { "\(($0.holdPath as NSString).lastPathComponent)@\($0.place)@\($0.date)" }.joined(separator: "|"))
        }

        func renderPNG(_ request: CollectionRequest, toFile path: String) throws {
            renders.add()
            try Data(try contentKey(for: request).canonical.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    let fixture: PipelineFixture
    let renders = Counter()
    let service: CollectionService

    init() throws {
        fixture = try PipelineFixture()
        let renders = renders
        service = CollectionService(domain: fixture.domain, settings: fixture.settings,
                                    rendererFactory: { FakeCollectionRenderer(renders: renders) })
    }

    @Test func aCollectionIsRenderedOnceAndRenderedAgainWhenAHoldIsAdded() throws {
        try fixture.history(meetups: 3, members: 1, place: { "Gym \($0)" })
        let member = try #require(try fixture.rewards().first?.memberID)

        let first = try service.image(memberID: member, scale: 2)
        #expect(!first.wasCached && first.holdCount == 3)
        let drawn = try String(contentsOf: first.url, encoding: .utf8)
        #expect(drawn.hasPrefix("collection/2/Member 1/"))
        #expect(drawn.contains("Gym 0") && drawn.range(of: "Gym 0")!.lowerBound < drawn.range(of: "Gym 2")!.lowerBound,
                "oldest hold first")
        #expect(first.url.path.hasPrefix(fixture.directory.file("data/collections/")))
        #expect(first.byteCount == Int64(drawn.utf8.count))

        let again = try service.image(memberID: member, scale: 2)
        #expect(again.wasCached && again.digest == first.digest)
        #expect(renders.count == 1)

        let other = try service.image(memberID: member, scale: 3)
        #expect(other.digest != first.digest, "another scale is another image")

        fixture.clock.advance(by: 86_400)
        let meetup = try fixture.domain.meetups.create(
            NewMeetup(title: "More", placeName: "Gym 9", startsAt: fixture.clock.now().addingTimeInterval(3_600),
                      endsAt: fixture.clock.now().addingTimeInterval(7_200), timeZone: "Asia/Seoul", capacity: 5, hostID: fixture.host.id),
            by: .user(fixture.host.id, role: .host))
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member, by: .user(member, role: .member))
        fixture.clock.advance(by: 3_700)
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member, proof: .host),
                                                by: .user(fixture.host.id, role: .host))
        let grown = try service.image(memberID: member, scale: 2)
        #expect(!grown.wasCached && grown.holdCount == 4 && grown.digest != first.digest)
    }

    @Test func theMembersOwnCollectionCarriesProgressAndTheStreakAndAHostsViewDoesNot() throws {
        try fixture.history(meetups: 3, members: 1, place: { "Gym \($0)" })
        let member = try #require(try fixture.rewards().first?.memberID)
        let own = try service.request(memberID: member, scale: 2)
        let progress = try #require(own.content.progress)
        let expected = try fixture.domain.progress.progress(memberID: member)
        #expect(progress.collected == expected.collected && progress.total == expected.total && progress.total > 0)
        #expect(progress.currentStreakWeeks == expected.streak.current)
        #expect(progress.longestStreakWeeks == expected.streak.longest && progress.longestStreakWeeks >= 1)
        #expect(try service.request(memberID: member, scale: 2, hostedBy: fixture.host.id).content.progress == nil)
    }

    @Test func anUnknownMemberIsRefusedByName() throws {
        #expect { try service.image(memberID: 999, scale: 2) } throws: { error in
            (error as? PipelineError)?.isMemberNotFound == true && "\(error)".contains("999")
        }
        #expect { try service.image(memberID: fixture.host.id, scale: 4) } throws: { "\($0)".contains("1, 2 or 3") }
    }

    @Test func aMemberWithoutHoldsGetsAnEmptyCollection() throws {
        let member = try fixture.member()
        let image = try service.image(memberID: member.id, scale: 1)
        #expect(image.holdCount == 0)
        let request = try service.request(memberID: member.id, scale: 1)
        #expect(request.content.firstDate == nil && request.content.lastDate == nil)
    }
}

/// Identical requests share one render, made off the callers' threads.
@Suite struct CollectionRenderSharingTests {
    /// Blocks in `renderPNG` until the test opens the gate.
    final class GatedRenderer: CollectionImageRenderer {
        let renders: CollectionServiceTests.Counter
        let started: DispatchSemaphore
        let gate: DispatchSemaphore
        init(renders: CollectionServiceTests.Counter, started: DispatchSemaphore, gate: DispatchSemaphore) {
            self.renders = renders
            self.started = started
            self.gate = gate
        }

        func contentKey(for request: CollectionRequest) throws -> ContentKey {
            ContentKey(canonical: "collection/\(request.scale)/\(request.content.memberName)/\(request.content.items.count)")
        }

        func renderPNG(_ request: CollectionRequest, toFile path: String) throws {
            renders.add()
            started.signal()
            gate.wait()
            try Data(try contentKey(for: request).canonical.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test func thirtyIdenticalFirstRequestsRenderOnceOffTheCallersThread() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 2, members: 1)
        let member = try #require(try fixture.rewards().first?.memberID)
        let renders = CollectionServiceTests.Counter()
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0), joined = DispatchSemaphore(value: 0)
        let service = CollectionService(domain: fixture.domain, settings: fixture.settings,
                                        rendererFactory: { GatedRenderer(renders: renders, started: started, gate: gate) },
                                        joinedRender: { joined.signal() })
        let results = Mutex<[Result<CollectionImage, any Error>]>([])
        let finished = DispatchGroup()
        let caller = pthread_self()
        let onCallerThread = Mutex(0)
        func ask() {
            finished.enter()
            service.image(memberID: member, scale: 3) { result in
                if pthread_equal(pthread_self(), caller) != 0 { onCallerThread.withLock { $0 += 1 } }
                results.withLock { $0.append(result) }
                finished.leave()
            }
        }
        ask()
        #expect(started.wait(timeout: .now() + 30) == .success, "the first request started rendering")
        for _ in 1..<30 { ask() }
        var joins = 0
        while joins < 29, joined.wait(timeout: .now() + 30) == .success { joins += 1 }
        #expect(joins == 29, "every later request waits for the render in progress")
        #expect(renders.count == 1)
        gate.signal()
        #expect(finished.wait(timeout: .now() + 30) == .success)

        let images = try results.withLock { $0 }.map { try $0.get() }
        #expect(images.count == 30 && Set(images.map(\.digest)).count == 1)
        #expect(renders.count == 1, "rendered once for 30 requests")
        #expect(onCallerThread.withLock { $0 } == 0)
        // Later requests find the cached file; the blocking form gives the same image.
        let cached = try service.image(memberID: member, scale: 3)
        #expect(cached.wasCached && cached.digest == images[0].digest && renders.count == 1)
    }
}
