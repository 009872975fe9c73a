import BelayStorage
import CSQLite
import Dispatch
import Foundation

/// Copies a database's WAL back into the database file on a thread of its own, so that the
/// writer thread, which every write waits for, does not.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses `wal_autocheckpoint`:
/// on the writer thread, copying thousands of pages while every queued write waits (10–15 ms
/// under a check-in burst, every fraction of a second). Here the writer connection's WAL
/// hook only notes how long the WAL is after each commit; this thread runs a PASSIVE
/// checkpoint on its own connection whenever `passFrames` frames are not copied yet, while
/// writes go on. What it cannot copy is whatever was written during its pass, so the WAL
/// keeps growing under a sustained burst; once it holds `restartFrames` and no more than
/// `finishFrames` are left to copy, the hook copies the rest itself (a millisecond or two),
/// which lets the next write start the WAL again from its beginning. Past `limitFrames` the
/// hook waits for a pass in progress and checkpoints whatever is left, as SQLite would, so
/// the WAL stays bounded even if this thread falls behind.
final class BackgroundCheckpointer: @unchecked Sendable {
    struct Thresholds {
        var passFrames: Int
        var restartFrames: Int
        var finishFrames: Int
        var limitFrames: Int

        /// Thresholds for a `wal_autocheckpoint` of `pages`: a pass every quarter of it, the
        /// WAL restarted once it holds that much, never more than eight times that.
        init(autocheckpointPages pages: Int) {
            let pages = max(pages, 64)
            passFrames = pages / 4
            restartFrames = pages
            finishFrames = pages / 16
            limitFrames = pages * 8
        }
    }

    private let connection: SQLiteDatabase
    private let thresholds: Thresholds
    private let lifecycle = ThreadStop()
    /// Guards every variable below.
    private var condition: NSCondition { lifecycle.condition }
    /// Frames in the WAL after the last commit (from the writer's hook).
    private var walFrames = 0
    /// Frames already copied into the database file (by the last pass of either side).
    private var copiedFrames = 0
    private var passRunning = false

    /// Opens the checkpointer's own connection and starts its thread.
    /// - Throws: `DatabaseError` when the connection cannot be opened.
    init(path: String, configuration: DatabaseConfiguration) throws {
        var own = configuration
        own.walAutocheckpointPages = 0
        connection = try SQLiteDatabase(path: path, configuration: own)
        thresholds = Thresholds(autocheckpointPages: configuration.walAutocheckpointPages)
        let thread = Thread { [self] in run() }
        thread.name = "belay-db-checkpointer"
        thread.start()
    }

    /// Installs the WAL hook on the writer's connection (instead of SQLite's automatic
    /// checkpoint, which the hook replaces). The checkpointer must outlive the connection:
    /// the writer thread keeps it and stops it after closing the connection.
    func attach(to writer: SQLiteDatabase) {
        guard let handle = writer.handle else { return }
        sqlite3_wal_hook(handle, { context, database, _, frames in
            guard let context else { return SQLITE_OK }
            Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
                .committed(walFrames: Int(frames), writer: database)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Ends the thread and closes its connection; waits for a pass in progress.
    func stop() {
        lifecycle.stop()
    }

    /// The writer's WAL hook, after a commit: notes the WAL's length; wakes the thread for a
    /// pass, or copies the little that is left itself so the WAL can start again.
    private func committed(walFrames frames: Int, writer: OpaquePointer?) {
        condition.lock()
        if frames < walFrames { copiedFrames = 0 }  // the WAL started again from its beginning
        walFrames = frames
        // Past the limit the writer waits for a pass in progress, then copies the rest itself.
        while frames >= thresholds.limitFrames && passRunning { condition.wait() }
        let uncopied = frames - copiedFrames
        let finishHere = !passRunning && uncopied > 0
            && ((frames >= thresholds.restartFrames && uncopied <= thresholds.finishFrames) || frames >= thresholds.limitFrames)
        if !finishHere && !passRunning && uncopied >= thresholds.passFrames { condition.signal() }
        condition.unlock()
        guard finishHere, let writer else { return }
        var log: Int32 = 0, copied: Int32 = 0
        if sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) == SQLITE_OK {
            condition.lock()
            copiedFrames = max(copiedFrames, Int(copied))
            condition.unlock()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while !lifecycle.isStopping && walFrames - copiedFrames < thresholds.passFrames { condition.wait() }
            if lifecycle.isStopping {
                condition.unlock()
                break
            }
            passRunning = true
            condition.unlock()
            var log: Int32 = 0, copied: Int32 = 0
            let code = connection.handle.map { sqlite3_wal_checkpoint_v2($0, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) } ?? SQLITE_MISUSE
            condition.lock()
            passRunning = false
            condition.broadcast()
            // A WAL that started again since the pass began (shorter than the pass saw) makes
            // its count meaningless.
            if code == SQLITE_OK && Int(log) <= walFrames { copiedFrames = max(copiedFrames, Int(copied)) }
            let failed = code != SQLITE_OK
            condition.unlock()
            // Busy (another process checkpoints) or an I/O error: try again a little later;
            // the writer's hook still bounds the WAL meanwhile.
            if failed { usleep(50_000) }
        }
        try? connection.close()
        lifecycle.ended()
    }
}
