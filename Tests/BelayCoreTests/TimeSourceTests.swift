import BelayCore
import Foundation
import Testing

@Suite struct TimeSourceTests {
    @Test func aManualSourceMovesOnlyWhenTold() {
        let start = Date(timeIntervalSince1970: 1_795_946_400)
        let clock = ManualTimeSource(start)
        #expect(clock.now() == start)
        #expect(clock.monotonicNanoseconds() == 0)
        clock.advance(by: 1.5)
        #expect(clock.now() == start.addingTimeInterval(1.5))
        #expect(clock.monotonicNanoseconds() == 1_500_000_000)
        // Setting the wall clock (or turning it back) does not move the monotonic clock.
        clock.set(start.addingTimeInterval(-3600))
        clock.advance(by: -10)
        #expect(clock.now() == start.addingTimeInterval(-3610))
        #expect(clock.monotonicNanoseconds() == 1_500_000_000)
    }

    @Test func theSystemsMonotonicClockNeverGoesBack() {
        let clock = SystemTimeSource()
        var last = clock.monotonicNanoseconds()
        for _ in 0..<1000 {
            let now = clock.monotonicNanoseconds()
            #expect(now >= last)
            last = now
        }
        #expect(abs(clock.now().timeIntervalSinceNow) < 5)
    }

    @Test func aDeadlineFollowsTheInjectedMonotonicClockNotTheWallClock() {
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 0))
        let deadline = Deadline(after: 2, clock: clock)
        #expect(!deadline.hasPassed)
        #expect(deadline.secondsLeft == 2)
        clock.set(Date(timeIntervalSince1970: 86_400))
        #expect(!deadline.hasPassed, "setting the wall clock does not reach a deadline")
        clock.advance(by: 1.25)
        #expect(deadline.secondsLeft == 0.75)
        clock.advance(by: 0.75)
        #expect(deadline.hasPassed)
        #expect(deadline.secondsLeft == 0)
        #expect(Deadline(after: -1, clock: clock).hasPassed)
    }

    @Test func aPassedDeadlineDoesNotWaitOnItsCondition() {
        let condition = NSCondition()
        condition.lock()
        defer { condition.unlock() }
        let clock = ManualTimeSource(Date())
        #expect(Deadline(after: 0, clock: clock).wait(on: condition) == false)
    }
}
