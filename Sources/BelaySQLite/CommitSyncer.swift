import BelayStorage
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Makes group commits durable without holding the writer: the writer commits each group
/// with `synchronous = NORMAL` (its frames reach the WAL file through the page cache), hands
/// the group's completions here, and goes on with the next group while this thread
/// `fdatasync`s the WAL and only then reports the writes as done. One fdatasync covers every
/// group committed before it started, so under load the fsync overlaps the next group's work
/// instead of leaving the writer idle.
///
/// Durability is that of `synchronous = FULL`: no caller learns of a commit before the WAL
/// frames holding it are on disk. Completions run on this thread, in commit order.
final class CommitSyncer: @unchecked Sendable {
    private let walPath: String
    private let directoryPath: String
    private let lifecycle = ThreadStop()
    private var condition: NSCondition { lifecycle.condition }
    /// Completions of committed groups, oldest first; guarded by `condition`.
    private var committed: [() -> Void] = []
    private var descriptor: Int32 = -1
    private var threadID: pthread_t?

    init(databasePath: String) {
        walPath = databasePath + "-wal"
        directoryPath = (databasePath as NSString).deletingLastPathComponent.isEmpty
            ? "." : (databasePath as NSString).deletingLastPathComponent
        let thread = Thread { [self] in run() }
        thread.name = "belay-db-sync"
        thread.start()
    }

    /// Reports `finish` once the WAL holding the commit just made is on disk.
    func afterSync(_ finish: @escaping () -> Void) {
        condition.lock()
        committed.append(finish)
        condition.signal()
        condition.unlock()
    }

    /// Whether the caller is this syncer's thread (where completions run).
    var isOnSyncThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let threadID else { return false }
        return pthread_equal(threadID, pthread_self()) != 0
    }

    /// Syncs and reports everything handed over so far, then ends the thread.
    func stop() {
        lifecycle.stop(waiting: !isOnSyncThread)
    }

    private func run() {
        condition.lock()
        threadID = pthread_self()
        condition.unlock()
        while true {
            condition.lock()
            while committed.isEmpty && !lifecycle.isStopping { condition.wait() }
            let batch = committed
            committed.removeAll(keepingCapacity: true)
            let stopping = lifecycle.isStopping
            condition.unlock()
            if !batch.isEmpty {
                syncWAL()
                for finish in batch { finish() }
            }
            if stopping && batch.isEmpty { break }
        }
        if descriptor >= 0 { close(descriptor) }
        lifecycle.ended()
    }

    /// `fdatasync` of the WAL, reopened when it was replaced (a new file after the last
    /// connection closed it); the directory is synced once per new file so that the file
    /// itself survives.
    private func syncWAL() {
        var status = stat()
        if descriptor >= 0, fstat(descriptor, &status) == 0, status.st_nlink == 0 {
            close(descriptor)
            descriptor = -1
        }
        if descriptor < 0 {
            descriptor = open(walPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            let directory = open(directoryPath, O_RDONLY | O_CLOEXEC)
            if directory >= 0 {
                _ = fsync(directory)
                close(directory)
            }
        }
        _ = fdatasync(descriptor)
    }
}
