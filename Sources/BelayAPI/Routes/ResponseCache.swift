import BelayCore
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
        /// The ETag of a member's calendar feed (its UTF-8), by member id.
        case calendarFeedETag(Int64)
        /// The member a calendar feed token stands for (the id's digits), by token: kept only
        /// for a token that works, so that a revoked one is refused once the cache is emptied.
        case calendarFeedMember(String)
        /// A digest of the revoked reward ids and the highest reward id (what the badge status
        /// lists depend on in the database).
        case revocations
        /// A reward whose images are rendered, as one caller may read it (their image requests
        /// ask for it each time an app shows the sticker), by reward and caller id.
        case renderedReward(reward: Int64, reader: Int64)
        /// What the console needs to know of a signed-in member besides their session, by member id.
        case consoleMember(Int64)
        /// A meetup as the console reads it for a member who manages it, by meetup and member id.
        case consoleManagedMeetup(meetup: Int64, member: Int64)
        /// The door list's rows of a meetup, made in one language.
        case consoleDoorList(meetup: Int64, language: String)
        /// The table of a dashboard: whose (0 for an admin's, which lists every meetup), which
        /// tab, which page, in which language.
        case consoleDashboard(manager: Int64, past: Bool, cursor: String, language: String)
        /// A console page as one session was last shown it (its forms carry that session's
        /// token), by the session's form token and the page's path and query.
        case consolePage(session: String, target: String)
    }

    /// A remembered value and what it costs the memory (its bytes, about).
    private struct Entry: Sendable {
        let value: any Sendable
        let cost: Int
    }

    /// Bodies as bytes, typed: a search's page looks up each of its meetups' bodies here.
    private let bodies: ExpiringMemory<Key, [UInt8]>
    /// Values of other shapes.
    private let memory: ExpiringMemory<Key, Entry>
    private let generation = Atomic<UInt64>(0)

    /// - Parameters:
    ///   - lifetime: how long a body is served without asking the database; zero turns the cache off.
    ///   - capacity: bodies kept at most, and values of other shapes at most; when full, that part starts over.
    ///   - maximumBytes: the bodies' bytes kept at most (default 32 MiB), and a quarter of it for
    ///     the other values; when full, that part starts over.
    ///   - clock: whose monotonic clock ages the bodies.
    public init(lifetime: Duration = .seconds(1), capacity: Int = 4_096, maximumBytes: Int = 32 << 20,
                clock: any TimeSource = SystemTimeSource()) {
        bodies = ExpiringMemory(lifetime: lifetime, capacity: capacity, maximumCost: maximumBytes, clock: clock, cost: { $0.count })
        memory = ExpiringMemory(lifetime: lifetime, capacity: capacity, maximumCost: maximumBytes / 4, clock: clock, cost: { $0.cost })
    }

    /// Bodies held and their bytes in all.
    public var usage: (count: Int, bytes: Int) {
        let (bodies, values) = (bodies.usage, memory.usage)
        return (bodies.count + values.count, bodies.cost + values.cost)
    }

    /// The generation to pass to `store` for a body about to be read.
    public var currentGeneration: UInt64 { generation.load(ordering: .acquiring) }

    /// The cached body for `key`, when fresh.
    public func body(for key: Key) -> [UInt8]? {
        bodies.value(for: key)
    }

    /// The cached bodies for `keys`, each when fresh: one look for all of them.
    public func bodies(for keys: [Key]) -> [[UInt8]?] {
        bodies.values(for: keys)
    }

    /// Stores `bytes` for `key` unless a change happened since `readGeneration`.
    public func store(_ bytes: [UInt8], for key: Key, readGeneration: UInt64) {
        bodies.store(bytes, for: key) { generation.load(ordering: .acquiring) != readGeneration }
    }

    /// The value cached for `key` when fresh and of type `type` (a value of a page's own shape,
    /// such as the console's door-list rows, kept under the same freshness rule as the bodies).
    func value<Value: Sendable>(for key: Key, as type: Value.Type) -> Value? {
        memory.value(for: key)?.value as? Value
    }

    /// Stores `value`, costing about `cost` bytes, for `key` unless a change happened since `readGeneration`.
    func store<Value: Sendable>(_ value: Value, cost: Int, for key: Key, readGeneration: UInt64) {
        memory.store(Entry(value: value, cost: cost), for: key) { generation.load(ordering: .acquiring) != readGeneration }
    }

    /// The value cached for `key`, or the one `make` reads now (and caches unless something
    /// changed while it read). `cost` says what a value costs the memory.
    func value<Value: Sendable>(for key: Key, cost: (Value) -> Int, make: () throws -> Value) rethrows -> Value {
        if let known = value(for: key, as: Value.self) { return known }
        let generation = currentGeneration
        let made = try make()
        store(made, cost: cost(made), for: key, readGeneration: generation)
        return made
    }

    /// Forgets everything: something changed.
    public func invalidate() {
        // The generation moves under the bodies' lock, so no body read before it is stored after.
        bodies.removeAll {
            memory.removeAll { generation.add(1, ordering: .releasing) }
        }
    }
}

/// Empties the response cache after every authenticated request that may have changed
/// something: a POST, PATCH, PUT or DELETE answered with a success. (Refusals roll back, or
/// write only what no cached body shows, such as a wrong check-in code being counted.)
struct ResponseCacheInvalidation: RouterMiddleware {
    let cache: ResponseCache

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) -> ResponseFuture) throws -> ResponseFuture {
        switch request.method {
        case .get, .head, .options:
            return next(request, context)
        default:
            return next(request, context).map { [cache] outcome in
                if case .success(let response) = outcome, response.status.code < 400 { cache.invalidate() }
                return outcome
            }
        }
    }
}
