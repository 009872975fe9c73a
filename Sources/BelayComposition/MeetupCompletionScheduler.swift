import BelayCore
import BelayDomain
import Foundation

/// Completes meetups whose check-in window has closed and passes on waitlist offers that ran
/// out, every `intervalSeconds`, on a thread of its own inside `belay serve` (each pass is
/// `MeetupService.completeEnded` and `AttendanceService.expireOffers`, idempotent and safe
/// with several servers on one database). An interval of 0 turns it off.
///
/// Threading: `start` and `stop` come from the application's owner thread.
public final class MeetupCompletionScheduler: @unchecked Sendable {
    private let meetups: MeetupService
    private let attendance: AttendanceService?
    private let intervalSeconds: Int
    private let log: @Sendable (String) -> Void
    private let thread = BackgroundLoop(name: "belay-meetup-completion")

    public init(meetups: MeetupService, attendance: AttendanceService? = nil, intervalSeconds: Int,
                log: @escaping @Sendable (String) -> Void) {
        self.meetups = meetups
        self.attendance = attendance
        self.intervalSeconds = intervalSeconds
        self.log = log
    }

    /// Starts the thread (nothing when the interval is 0); its first pass runs at once.
    public func start() {
        guard intervalSeconds > 0 else { return }
        thread.start { [self] in
            runOnce()
            return Double(intervalSeconds)
        }
    }

    /// Stops the thread after the pass in hand.
    public func stop() {
        thread.stop()
    }

    /// One pass: completes every meetup due, in batches.
    /// - Returns: how many meetups were completed.
    @discardableResult
    public func runOnce() -> Int {
        var total = 0
        do {
            while true {
                let done = try meetups.completeEnded(limit: 100)
                total += done.count
                if done.count < 100 { break }
            }
            if let attendance {
                while try attendance.expireOffers(limit: 500) == 500 {}
            }
        } catch {
            log("could not complete ended meetups: \(error); trying again in \(intervalSeconds) s")
        }
        if total > 0 { log("completed \(Plural.counted(total, "meetup")) whose check-in window closed") }
        return total
    }
}
