import BelayCore
import BelayDomain

/// Remembers recent successful authentications for a short time, so a busy client costs one
/// dictionary lookup per request instead of a SHA-256 and a database read.
///
/// A token revoked (or a role changed) with the CLI, in another process, takes effect once
/// the entry is older than `lifetime`: one second by default. Failed authentications are
/// never cached, so a newly issued token works at once.
public final class TokenCache: Sendable {
    private let memory: ExpiringMemory<String, AuthenticatedUser>

    /// - Parameters:
    ///   - lifetime: how long a successful authentication is trusted without asking the database.
    ///   - capacity: entries kept at most; when full, the cache starts over (cheap and bounded).
    ///   - clock: whose monotonic clock ages the entries.
    public init(lifetime: Duration = .seconds(1), capacity: Int = 50_000, clock: any TimeSource = SystemTimeSource()) {
        memory = ExpiringMemory(lifetime: lifetime, capacity: capacity, clock: clock)
    }

    /// The cached user behind `token`, when the entry is still fresh.
    public func user(for token: String) -> AuthenticatedUser? {
        memory.value(for: token)
    }

    /// Remembers that `token` authenticated `user` just now.
    public func store(_ user: AuthenticatedUser, for token: String) {
        memory.store(user, for: token)
    }

    /// Forgets every entry (e.g. after this process revoked a token).
    public func removeAll() {
        memory.removeAll()
    }
}
