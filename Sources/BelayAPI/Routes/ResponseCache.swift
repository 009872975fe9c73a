#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BelayHTTP
import Synchronization

/// Keeps the bodies of the busiest reads (a meetup, a page of meetups) for a moment, so the
/// app's polling costs a dictionary lookup instead of a database read and JSON writing.
///
/// Freshness: every change made through this server (any successful POST, PATCH, PUT or
/// DELETE) empties the cache at once, so a client always reads its own writes. Changes made
/// by another process (the CLI) show within `lifetime`. A body read from the database while a
/// change committed is not stored (the generation it was read under is stale).
public final class ResponseCache: Sendable {
    /// What a cached body answers.
    public enum Key: Hashable, Sendable {
        case meetup(Int64)
        /// A meetup list, by its query string.
        case meetupList(String)
    }

    private struct Entry {
        let bytes: [UInt8]
        let storedAt: UInt64
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let generation = Atomic<UInt64>(0)
    private let lifetimeNanoseconds: UInt64
    private let capacity: Int

    /// - Parameters:
    ///   - lifetime: how long a body is served without asking the database; zero turns the cache off.
    ///   - capacity: bodies kept at most; when full, the cache starts over.
    public init(lifetime: Duration = .seconds(1), capacity: Int = 4_096) {
        let (seconds, attoseconds) = lifetime.components
        lifetimeNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.capacity = max(1, capacity)
    }

    /// The generation to pass to `store` for a body about to be read.
    public var currentGeneration: UInt64 { generation.load(ordering: .acquiring) }

    /// The cached body for `key`, when fresh.
    public func body(for key: Key) -> [UInt8]? {
        guard lifetimeNanoseconds > 0 else { return nil }
        let now = Self.now()
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now &- entry.storedAt < lifetimeNanoseconds else {
                entries[key] = nil
                return nil
            }
            return entry.bytes
        }
    }

    /// Stores `bytes` for `key` unless a change happened since `readGeneration`.
    public func store(_ bytes: [UInt8], for key: Key, readGeneration: UInt64) {
        guard lifetimeNanoseconds > 0 else { return }
        let now = Self.now()
        entries.withLock { entries in
            guard generation.load(ordering: .acquiring) == readGeneration else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(bytes: bytes, storedAt: now)
        }
    }

    /// Forgets everything: something changed.
    public func invalidate() {
        entries.withLock { entries in
            generation.add(1, ordering: .releasing)
            entries.removeAll(keepingCapacity: true)
        }
    }

    private static func now() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// Empties the response cache after every authenticated request that may have changed
/// something: a POST, PATCH, PUT or DELETE answered with a success. (Refusals roll back, or
/// write only what no cached body shows, such as a wrong check-in code being counted.)
struct ResponseCacheInvalidation: RouterMiddleware {
    let cache: ResponseCache

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) throws -> Response) throws -> Response {
        switch request.method {
        case .get, .head, .options:
            return try next(request, context)
        default:
            let response = try next(request, context)
            if response.status.code < 400 { cache.invalidate() }
            return response
        }
    }
}
