#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The `belay` children a test process started and has not seen end. Their readers keep the
/// objects alive while a child runs, so a test that never stops its server would leave it
/// running after the suite; when the test process exits, every child still here is killed.
enum ChildProcessRegistry {
    private static let running = Mutex<Set<Int32>>([])
    private static let installed: Void = {
        atexit { ChildProcessRegistry.killAll() }
    }()

    static func started(_ pid: Int32) {
        _ = installed
        running.withLock { _ = $0.insert(pid) }
    }

    static func ended(_ pid: Int32) {
        running.withLock { _ = $0.remove(pid) }
    }

    private static func killAll() {
        for pid in running.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}
