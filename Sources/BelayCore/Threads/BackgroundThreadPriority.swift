#if canImport(Glibc)
import Glibc
#endif

/// The scheduling priority of background threads (render workers, the backfill, webhook and
/// push delivery): nice 19, the lowest. With spare CPU it changes nothing; when requests keep
/// every core busy the kernel runs them first and the background work in the time left over,
/// so a burst is answered promptly and its renders and webhooks follow.
///
/// Lower only threads that do not hold what requests wait for: the database writer and its
/// commit thread stay at normal priority, and background threads reach them by handing work
/// over (`SQLitePool.write`), never by holding a lock while they run.
public enum BackgroundThreadPriority {
    /// The nice value background threads run at.
    public static let niceness: Int32 = 19

    /// Lowers the calling thread (only it: on Linux the nice value belongs to the thread, and
    /// `who` 0 names the calling thread). Does nothing when it is already that low.
    public static func lowerThisThread() {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}
