import BelayDomain
@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

@Suite struct BackfillSchedulerTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!

    func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func aDailyRunHappensAtTheTimeInTheClubsZone() {
        let schedule = BackfillSchedule(dailyAt: (hour: 4, minute: 30), everyMinutes: 15, timeZone: seoul)
        #expect(schedule == .daily(hour: 4, minute: 30, timeZone: seoul), "daily_at wins over every_minutes")
        // 04:30 in Seoul is 19:30 UTC the day before.
        #expect(schedule.nextRun(after: instant("2026-11-29T12:00:00Z")) == instant("2026-11-29T19:30:00Z"))
        #expect(schedule.nextRun(after: instant("2026-11-29T19:30:00Z")) == instant("2026-11-30T19:30:00Z"))
        #expect(schedule.summary == "daily at 04:30 Asia/Seoul")
    }

    @Test func aDailyTimeSkippedByDaylightSavingRunsAtTheNextInstant() {
        let newYork = TimeZone(identifier: "America/New_York")!
        let schedule = BackfillSchedule.daily(hour: 2, minute: 30, timeZone: newYork)
        // 2027-03-14 02:30 does not exist in New York (clocks jump from 02:00 to 03:00 EDT).
        let next = schedule.nextRun(after: instant("2027-03-14T05:00:00Z"))!
        #expect(next == instant("2027-03-14T07:00:00Z"))
    }

    @Test func periodicAndOffSchedules() {
        #expect(BackfillSchedule(dailyAt: nil, everyMinutes: 15, timeZone: seoul).nextRun(after: instant("2026-11-29T12:00:00Z"))
                == instant("2026-11-29T12:15:00Z"))
        let off = BackfillSchedule(dailyAt: nil, everyMinutes: 0, timeZone: seoul)
        #expect(off == .off && off.nextRun(after: Date()) == nil)
    }

    @Test func aScheduledRunBackfillsAndOneRefusedByTheLeaseIsSkipped() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 2)
        let lines = LogLines()
        let scheduler = BackfillScheduler(schedule: .every(minutes: 60), runner: fixture.backfillRunner(), clock: fixture.clock,
                                          log: { lines.append($0) })
        let other = LeaseClaimant(host: "db-1", pid: 4242, purpose: "belay backfill")
        _ = try fixture.domain.leases.acquire(BackfillRunner.leaseName, as: other, duration: 30)
        #expect(scheduler.runOnce() == nil)
        #expect(lines.all.contains { $0.contains("skipped this run") && $0.contains("pid 4242") })

        _ = try fixture.domain.leases.release(BackfillRunner.leaseName, holderID: other.holderID)
        let report = try #require(scheduler.runOnce())
        #expect(report.awarded == 2)
        #expect(scheduler.lastReport == report)
        scheduler.stop()
    }

    @Test func inTheServerARunQueuesRendersForTheWorkersAndWakesThem() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 3)
        let woken = LogLines()
        let scheduler = BackfillScheduler(schedule: .every(minutes: 60), runner: fixture.backfillRunner(),
                                          options: BackfillOptions(jobs: 0), clock: fixture.clock,
                                          afterRun: { woken.append("notified") })
        let report = try #require(scheduler.runOnce())
        #expect(report.awarded == 3 && report.rendered == 0)
        #expect(woken.all == ["notified"])
        #expect(fixture.counters.renders == 0)
        #expect(try fixture.domain.renderJobs.counts().queued == 3, "left for the server's render workers")
        scheduler.stop()
    }

    @Test func theSchedulerThreadRunsWhenTheTimeComesAndStops() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 1)
        let lines = LogLines()
        let scheduler = BackfillScheduler(schedule: .every(minutes: 5), runner: fixture.backfillRunner(), clock: fixture.clock,
                                          checkInterval: 0.02, log: { lines.append($0) })
        scheduler.start()
        fixture.clock.advance(by: 300)
        #expect(lines.wait(for: { $0.contains("awarded 1") }, timeout: 60))
        scheduler.stop()
        #expect(try fixture.rewards().first?.renderStatus == .ready)
    }
}

/// Log lines collected from another thread, with a wait for one to appear.
final class LogLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []

    func append(_ line: String) {
        condition.lock()
        lines.append(line)
        condition.broadcast()
        condition.unlock()
    }

    var all: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    func wait(for predicate: (String) -> Bool, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !lines.contains(where: predicate) {
            if !condition.wait(until: deadline) { return lines.contains(where: predicate) }
        }
        return true
    }
}
