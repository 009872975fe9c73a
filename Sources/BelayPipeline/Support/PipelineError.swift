import BelayDomain
import Foundation

/// The error of the render pipeline layer (settings, workers, collections, backfill). The
/// image store has its own `ImageStoreError`; domain refusals stay `DomainError`.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    enum Kind: Sendable {
        case invalidSetting(key: String, message: String)
        case rendererUnavailable(message: String)
        case backfillLeaseHeld(Lease)
        case backfillLeaseLost
        case storageUnavailable(message: String)
        case alreadyStarted
        case memberNotFound(Int64)
        case queueFull(what: String, capacity: Int, retryAfterSeconds: Int)
    }

    let kind: Kind

    static func invalidSetting(_ key: String, _ message: String) -> PipelineError {
        PipelineError(kind: .invalidSetting(key: key, message: message))
    }

    /// The lease when another backfill holds it.
    public var leaseHolder: Lease? {
        if case let .backfillLeaseHeld(lease) = kind { return lease }
        return nil
    }

    /// True when the data directory refused writes (disk full, read-only): running again
    /// once it is fixed finishes the work.
    public var isStorageUnavailable: Bool {
        if case .storageUnavailable = kind { return true }
        return false
    }

    /// Refuses work because `capacity` pieces of it are already waiting or running.
    static func queueFull(_ what: String, capacity: Int, retryAfterSeconds: Int) -> PipelineError {
        PipelineError(kind: .queueFull(what: what, capacity: capacity, retryAfterSeconds: retryAfterSeconds))
    }

    /// When the work was refused because its queue is full: the seconds after which trying
    /// again is worthwhile (an HTTP answer's `Retry-After`); nil for every other error.
    public var retryAfterSeconds: Int? {
        if case let .queueFull(_, _, seconds) = kind { return seconds }
        return nil
    }

    /// True when a member asked for does not exist.
    public var isMemberNotFound: Bool {
        if case .memberNotFound = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case let .invalidSetting(key, message):
            return "The render setting \(key) \(message); fix it in config.json"
        case let .rendererUnavailable(message):
            return "The renderer cannot start: \(message)"
        case let .backfillLeaseHeld(lease):
            return "Another backfill is running: the lease is \(lease.holderDescription). Wait for it to finish; if that process is gone, its lease runs out by itself and the next run takes over"
        case .backfillLeaseLost:
            return "This backfill lost its lease (it could not renew it in time, and another run took over); it stopped after the jobs in hand. Run it again: finished work is not redone"
        case let .storageUnavailable(message):
            return message
        case .alreadyStarted:
            return "The render worker pool was already started"
        case let .memberNotFound(id):
            return "No member has id \(id); list members with `belay users list`"
        case let .queueFull(what, capacity, seconds):
            return "Too many \(what) are waiting to be drawn (\(capacity) at most); try again in \(seconds) seconds"
        }
    }
}
