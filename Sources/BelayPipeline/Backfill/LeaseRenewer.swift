import BelayDomain
import Foundation

/// Renews a held lease every third of its duration on its own thread, and calls `lost`
/// (once) when the lease could not be renewed: it ran out and another holder took it.
final class LeaseRenewer: Sendable {
    private let leases: LeaseService
    private let holderID: String
    private let duration: TimeInterval
    private let lost: @Sendable () -> Void
    private let signal = WakeSignal()
    private let done = DispatchSemaphore(value: 0)

    init(leases: LeaseService, holderID: String, duration: TimeInterval, lost: @escaping @Sendable () -> Void) {
        self.leases = leases
        self.holderID = holderID
        self.duration = duration
        self.lost = lost
    }

    func start() {
        let thread = Thread { [self] in
            defer { done.signal() }
            while !signal.isClosed {
                signal.wait(since: signal.mark, timeout: duration / 3, ignoringNotify: true)
                if signal.isClosed { return }
                do {
                    if try leases.renew(BackfillRunner.leaseName, holderID: holderID, duration: duration) == nil {
                        lost()
                        return
                    }
                } catch {
                    // A busy database is retried at the next tick; the lease still has two
                    // thirds of its time left.
                    continue
                }
            }
        }
        thread.name = "belay-backfill-lease"
        thread.start()
    }

    func stop() {
        signal.close()
        done.wait()
    }
}
