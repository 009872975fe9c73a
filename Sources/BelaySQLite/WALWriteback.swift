import BelayStorage
import CSQLiteShim
import Dispatch
import Foundation

/// Starts writing a database's WAL back to disk in the background, a few milliseconds after
/// commits, without waiting for it.
///
/// With `synchronous = NORMAL` a commit does not fsync (with FULL it does, and this thread
/// finds little left to write); the WAL is fsynced at the start of
/// each checkpoint instead, which SQLite runs inside the commit that crosses
/// `wal_autocheckpoint`, on the writer thread. Left to itself, that fsync finds the whole WAL
/// (megabytes) still in the page cache and holds every queued write for 10–20 ms. Started
/// early and often here, the writeback is mostly done by then. Durability is unchanged (the
/// checkpoint still fsyncs); the latest commits only reach the disk sooner.
final class WALWriteback: @unchecked Sendable {
    private let walPath: String
    private let delayMicroseconds: UInt32
    private let lifecycle = ThreadStop()
    /// Guards `pending`.
    private var condition: NSCondition { lifecycle.condition }
    private var pending = false

    /// - Parameters:
    ///   - databasePath: the database file; its WAL is `<path>-wal`.
    ///   - delay: how long after a commit the writeback starts, so that commits close
    ///     together share one.
    init(databasePath: String, delay: TimeInterval = 0.005) {
        walPath = databasePath + "-wal"
        delayMicroseconds = UInt32(max(delay, 0) * 1_000_000)
        let thread = Thread { [self] in run() }
        thread.name = "belay-wal-writeback"
        thread.start()
    }

    /// Notes that a commit wrote to the WAL; cheap, called by the writer thread after each.
    func noteCommit() {
        condition.lock()
        if !pending {
            pending = true
            condition.signal()
        }
        condition.unlock()
    }

    /// Ends the thread (after the writeback in hand) and waits for it.
    func stop() {
        lifecycle.stop()
    }

    private func run() {
        while true {
            condition.lock()
            while !pending && !lifecycle.isStopping { condition.wait() }
            if lifecycle.isStopping {
                condition.unlock()
                break
            }
            condition.unlock()
            usleep(delayMicroseconds)
            condition.lock()
            pending = false
            condition.unlock()
            // A missing WAL (not yet created, or removed at the last close) needs nothing.
            _ = belay_start_writeback(walPath)
        }
        lifecycle.ended()
    }
}
