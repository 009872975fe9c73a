import Dispatch

/// Waits on the calling thread for a result another thread delivers: how a store's blocking
/// `write` waits for its writer thread.
public enum CompletionWait {
    /// Calls `start` with a completion and returns what that completion is given, once it is.
    /// - Throws: the error the completion is given.
    public static func result<T>(_ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = ResultBox<T>()
        start { result in
            outcome.value = result
            done.signal()
        }
        done.wait()
        // Set before the signal the wait returned on.
        return try outcome.value!.get()
    }
}

/// Where a writer thread leaves a write's result for its caller (each engine's writer uses it).
public final class ResultBox<T>: @unchecked Sendable {
    public var value: Result<T, any Error>?

    public init() {}
}
