#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BelayDomain
import Synchronization

/// Remembers recent successful authentications for a short time, so a busy client costs one
/// dictionary lookup per request instead of a SHA-256 and a database read.
///
/// A token revoked (or a role changed) with the CLI, in another process, takes effect once
/// the entry is older than `lifetime`: one second by default. Failed authentications are
/// never cached, so a newly issued token works at once.
public final class TokenCache: Sendable {
    private struct Entry {
        let user: AuthenticatedUser
        let storedAt: UInt64
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let lifetimeNanoseconds: UInt64
    private let capacity: Int

    /// - Parameters:
    ///   - lifetime: how long a successful authentication is trusted without asking the database.
    ///   - capacity: entries kept at most; when full, the cache starts over (cheap and bounded).
    public init(lifetime: Duration = .seconds(1), capacity: Int = 50_000) {
        let (seconds, attoseconds) = lifetime.components
        lifetimeNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.capacity = max(1, capacity)
    }

    /// The cached user behind `token`, when the entry is still fresh.
    public func user(for token: String) -> AuthenticatedUser? {
        let now = Self.now()
        return entries.withLock { entries in
            guard let entry = entries[token] else { return nil }
            guard now &- entry.storedAt < lifetimeNanoseconds else {
                entries[token] = nil
                return nil
            }
            return entry.user
        }
    }

    /// Remembers that `token` authenticated `user` just now.
    public func store(_ user: AuthenticatedUser, for token: String) {
        let now = Self.now()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = Entry(user: user, storedAt: now)
        }
    }

    /// Forgets every entry (e.g. after this process revoked a token).
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    private static func now() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
