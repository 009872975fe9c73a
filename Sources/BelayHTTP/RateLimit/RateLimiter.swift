import BelayCore
import Synchronization

/// Token buckets per caller, shared by every server thread.
///
/// A bucket is named by a policy and a key the caller of `take` chooses (`token:<id>`,
/// `ip:192.0.2.4`, `email:<digest>`). Each bucket is one number: the instant, on the injected
/// monotonic clock, at which it will be full again (the "theoretical arrival time" of GCRA). A
/// request of cost `c` is allowed when the bucket can pay for it; the instant then moves `c`
/// token intervals later. A bucket that is full again holds nothing a fresh one would not, so
/// forgetting it loses nothing; a key never seen is a full bucket.
///
/// Threading: keys are spread by hash over shards, each behind its own `Mutex`; a `take` locks
/// one shard once and does one dictionary lookup there.
///
/// Memory: at most about `maximumKeysPerPolicy` keys are kept per policy (the bound is split
/// evenly between shards). When a shard is at its share and a new key arrives, it forgets every
/// bucket that has filled up again, and if that frees fewer than an eighth of its share, also
/// the buckets nearest to full (in steps of a sixteenth of the capacity), until an eighth is
/// free. A caller forgotten that way starts again with a full bucket. That is the trade-off:
/// under a flood of new keys, each of which has spent a token or so, the buckets of busy callers
/// (nearly empty) are the last to go, so a flood cannot refill them; it can only hand callers
/// who were about as full as the flood's own buckets the few tokens they lacked.
public final class RateLimiter: Sendable {
    /// Keys kept per policy unless told otherwise: a few megabytes at most.
    public static let defaultMaximumKeysPerPolicy = 100_000

    private let shards: [Shard]
    private let keysPerShard: Int
    private let clock: any TimeSource

    /// - Parameters:
    ///   - clock: whose monotonic clock refills the buckets.
    ///   - maximumKeysPerPolicy: keys kept per policy at most (at least one per shard).
    ///   - shardCount: independently locked parts (1 to 256); more lets more threads take at once.
    public init(clock: any TimeSource = SystemTimeSource(), maximumKeysPerPolicy: Int = RateLimiter.defaultMaximumKeysPerPolicy,
                shardCount: Int = 16) {
        let count = min(256, max(1, shardCount))
        shards = (0..<count).map { _ in Shard() }
        keysPerShard = max(1, maximumKeysPerPolicy / count)
        self.clock = clock
    }

    /// Takes `cost` requests from the bucket `key` of `policy`, if it holds them.
    ///
    /// A refused request takes nothing. A cost of 0 only reads the bucket. A `cost` above the
    /// policy's capacity is never allowed (its retry-after is the time until the bucket is full).
    public func take(_ policy: RateLimitPolicy, key: String, cost: Int = 1) -> RateLimitDecision {
        let now = clock.monotonicNanoseconds()
        let cost = max(0, cost)
        return shard(for: key).state.withLock { state in
            state.take(policy, key: key, cost: cost, now: now, keysPerShard: keysPerShard)
        }
    }

    /// Takes `cost` from the bucket of every key in `keys`, allowed only when all of them hold
    /// it (a token's bucket and an address's, say). When one refuses, what was taken from the
    /// others is given back, and the refusal is answered. When all allow, the answer is the
    /// tightest: the fewest remaining, the longest until full. No keys: allowed, nothing taken.
    ///
    /// Pass each key once: a key listed twice pays twice.
    public func take(_ policy: RateLimitPolicy, keys: [String], cost: Int = 1) -> RateLimitDecision {
        if keys.count == 1 { return take(policy, key: keys[0], cost: cost) }
        var tightest = RateLimitDecision(allowed: true, remaining: policy.capacity, resetSeconds: 0, retryAfterSeconds: 0)
        for (index, key) in keys.enumerated() {
            let decision = take(policy, key: key, cost: cost)
            guard decision.allowed else {
                for taken in keys[..<index] { giveBack(policy, key: taken, cost: cost) }
                return decision
            }
            tightest = RateLimitDecision(allowed: true, remaining: min(tightest.remaining, decision.remaining),
                                         resetSeconds: max(tightest.resetSeconds, decision.resetSeconds), retryAfterSeconds: 0)
        }
        return tightest
    }

    /// How many keys of `policy` have a bucket kept now (for tests and monitoring).
    public func keptKeys(for policy: RateLimitPolicy) -> Int {
        shards.reduce(0) { total, shard in
            total + shard.state.withLock { state in state.tables.first { $0.policy == policy }?.fullAt.count ?? 0 }
        }
    }

    /// Returns `cost` to the bucket `key` of `policy` (a request refused by another key's bucket).
    private func giveBack(_ policy: RateLimitPolicy, key: String, cost: Int) {
        let charge = policy.nanosecondsPerToken * UInt64(min(max(0, cost), policy.capacity))
        shard(for: key).state.withLock { state in
            guard let index = state.tables.firstIndex(where: { $0.policy == policy }),
                  let fullAt = state.tables[index].fullAt[key] else { return }
            // An instant at or before now means full: a bucket that was full when paying is full again.
            state.tables[index].fullAt[key] = fullAt > charge ? fullAt - charge : 0
        }
    }

    private func shard(for key: String) -> Shard {
        // The high bits: the dictionary inside the shard looks at the low ones.
        shards[Int((UInt64(UInt(bitPattern: key.hashValue)) >> 40) % UInt64(shards.count))]
    }

    final class Shard: Sendable {
        let state = Mutex(ShardState())
    }

    /// The buckets of one shard, one table per policy (a handful: found by a short scan).
    struct ShardState: Sendable {
        struct Table: Sendable {
            let policy: RateLimitPolicy
            /// Per key, the monotonic instant at which its bucket is full again.
            var fullAt: [String: UInt64] = [:]
        }

        var tables: [Table] = []

        mutating func take(_ policy: RateLimitPolicy, key: String, cost: Int, now: UInt64, keysPerShard: Int) -> RateLimitDecision {
            let interval = policy.nanosecondsPerToken
            let burst = interval * UInt64(policy.capacity)
            let index: Int
            if let found = tables.firstIndex(where: { $0.policy == policy }) {
                index = found
            } else {
                tables.append(Table(policy: policy))
                index = tables.count - 1
            }
            let stored = tables[index].fullAt[key]
            // Nanoseconds of refill the bucket lacks (0: full); never more than an empty bucket's.
            let debt = min(burst, stored.map { $0 > now ? $0 - now : 0 } ?? 0)
            guard cost <= policy.capacity else {
                return RateLimitDecision(allowed: false, remaining: Int((burst - debt) / interval), resetSeconds: Self.seconds(debt),
                                         retryAfterSeconds: max(1, Self.seconds(debt)))
            }
            let owed = debt + interval * UInt64(cost)
            guard owed <= burst else {
                return RateLimitDecision(allowed: false, remaining: Int((burst - debt) / interval), resetSeconds: Self.seconds(debt),
                                         retryAfterSeconds: max(1, Self.seconds(owed - burst)))
            }
            if owed > 0 {
                if stored == nil && tables[index].fullAt.count >= keysPerShard {
                    tables[index].evict(now: now, burst: burst, keeping: keysPerShard - max(1, keysPerShard / 8))
                }
                tables[index].fullAt[key] = now + owed
            }
            return RateLimitDecision(allowed: true, remaining: Int((burst - owed) / interval), resetSeconds: Self.seconds(owed),
                                     retryAfterSeconds: 0)
        }

        /// Nanoseconds as whole seconds, rounded up.
        static func seconds(_ nanoseconds: UInt64) -> Int {
            Int((nanoseconds + 999_999_999) / 1_000_000_000)
        }
    }
}

extension RateLimiter.ShardState.Table {
    /// Forgets every full bucket, then the buckets nearest to full, until at most `keeping`
    /// remain. Linear in the table: buckets are sorted into 17 bins of how much they lack
    /// (bin 0: nothing) and whole bins go, fullest first.
    mutating func evict(now: UInt64, burst: UInt64, keeping: Int) {
        let binWidth = burst / 16 + 1
        func bin(_ fullAt: UInt64) -> Int { fullAt <= now ? 0 : 1 + Int(min(15, (fullAt - now) / binWidth)) }
        var counts = [Int](repeating: 0, count: 17)
        for value in fullAt.values { counts[bin(value)] += 1 }
        var dropped = 0
        var lastDroppedBin = 0
        // Full buckets always go; fuller bins follow while too many would remain.
        for binIndex in 0..<counts.count {
            dropped += counts[binIndex]
            lastDroppedBin = binIndex
            if fullAt.count - dropped <= keeping { break }
        }
        fullAt = fullAt.filter { bin($0.value) > lastDroppedBin }
    }
}

/// What a `RateLimiter` answered: whether the request may go ahead, and what the caller has left.
public struct RateLimitDecision: Sendable, Hashable {
    /// True when the bucket paid for the request.
    public let allowed: Bool
    /// Requests the bucket holds now (after paying, when allowed).
    public let remaining: Int
    /// Seconds until the bucket is full again, rounded up; 0 when it is full.
    public let resetSeconds: Int
    /// When refused: seconds until the bucket holds the request's cost, rounded up, at least 1.
    /// 0 when allowed.
    public let retryAfterSeconds: Int

    public init(allowed: Bool, remaining: Int, resetSeconds: Int, retryAfterSeconds: Int) {
        self.allowed = allowed
        self.remaining = remaining
        self.resetSeconds = resetSeconds
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The response fields that tell the client about `policy` (draft-ietf-httpapi-ratelimit-headers,
    /// structured-field form): `RateLimit-Policy: "auth";q=10;w=60` and `RateLimit: "auth";r=3;t=20`.
    ///
    /// `t` is `resetSeconds` when allowed; when refused it is `retryAfterSeconds`, the same
    /// instant as the `Retry-After` sent with a 429.
    public func headers(policy: RateLimitPolicy) -> [(String, String)] {
        [("RateLimit-Policy", policy.fieldValue), ("RateLimit", fieldValue(policy: policy))]
    }

    /// `"auth";r=3;t=20`: this decision as one member of a `RateLimit` field.
    public func fieldValue(policy: RateLimitPolicy) -> String {
        "\(policy.quotedName);r=\(remaining);t=\(allowed ? resetSeconds : retryAfterSeconds)"
    }
}
