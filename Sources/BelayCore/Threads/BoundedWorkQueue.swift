import Foundation
import Synchronization

/// Work run on threads of its own with a bound on how much may wait: at most `capacity`
/// pieces of work queued or running at once. Beyond it `submit` refuses at once, so that a
/// burst is answered "busy, retry later" instead of piling up memory and latency without end.
/// Images drawn on request, sign-ins that must call a provider, and sign-in mail (one message
/// at a time) run on one each.
///
/// Threading: safe from any thread.
public final class BoundedWorkQueue: Sendable {
    /// Work queued or running at most.
    public let capacity: Int
    private let queue: OperationQueue
    private let admitted = Atomic<Int>(0)

    /// - Parameters:
    ///   - name: the threads' name.
    ///   - threads: how many pieces of work run at once (1: one after another, in order).
    ///   - capacity: how many may be queued or running together (at least `threads`).
    ///   - quality: how the threads are scheduled beside the server's own.
    public init(name: String, threads: Int, capacity: Int, quality: QualityOfService = .utility) {
        queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = max(1, threads)
        queue.qualityOfService = quality
        self.capacity = max(max(1, threads), capacity)
    }

    /// Work queued or running now.
    public var count: Int { admitted.load(ordering: .relaxed) }

    /// Runs `work` on the queue's threads, or returns false at once when `capacity` pieces of
    /// work are already queued or running (then `work` never runs).
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        var current = admitted.load(ordering: .relaxed)
        while true {
            guard current < capacity else { return false }
            let (exchanged, original) = admitted.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = original
        }
        queue.addOperation { [self] in
            defer { admitted.subtract(1, ordering: .releasing) }
            work()
        }
        return true
    }

    /// Waits until no work is queued or running (tests, shutdown).
    public func waitUntilIdle() { queue.waitUntilAllOperationsAreFinished() }
}
