import Synchronization

/// What a store runs in this process after a commit whose transaction announced work
/// (`Database.notifyAtCommit`): the handlers registered for each channel the transaction named,
/// so that writing the work is itself what wakes the workers that do it. Every engine's
/// group-commit writer runs them once the writes' callers have heard of the commit.
public final class WorkWakes: Sendable {
    private let handlers = Mutex<[String: [@Sendable () -> Void]]>([:])

    /// No handler yet.
    public init() {}

    /// Adds `wake`, to run after each commit that announced work on `channel`.
    public func add(_ channel: String, _ wake: @escaping @Sendable () -> Void) {
        handlers.withLock { $0[channel, default: []].append(wake) }
    }

    /// Runs the handlers registered for each of `channels` (outside the lock, so a handler may
    /// take its time or register more).
    public func wake(_ channels: Set<String>) {
        guard !channels.isEmpty else { return }
        let due = handlers.withLock { handlers in channels.sorted().flatMap { handlers[$0] ?? [] } }
        for wake in due { wake() }
    }
}
