import BelayCore
import BelayHTTP
import Dispatch
import Foundation
import Synchronization
import Testing

/// Token-bucket arithmetic on a clock that moves only when told, the memory bound under a flood
/// of keys, and many threads sharing one bucket.
@Suite("Rate limiter")
struct RateLimiterTests {
    let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))

    @Test("a full bucket allows its burst, then refuses until a request is earned back")
    func burstThenRefill() throws {
        let auth = try RateLimitPolicy(name: "auth", requests: 10, perSeconds: 60)   // one request per 6 s
        let limiter = RateLimiter(clock: clock)
        for spent in 1...10 {
            let decision = limiter.take(auth, key: "ip:192.0.2.4")
            #expect(decision == RateLimitDecision(allowed: true, remaining: 10 - spent, resetSeconds: 6 * spent, retryAfterSeconds: 0))
        }
        #expect(limiter.take(auth, key: "ip:192.0.2.4") == RateLimitDecision(allowed: false, remaining: 0, resetSeconds: 60, retryAfterSeconds: 6))
        clock.advance(by: 5.5)
        // Half a second short: rounded up, never 0.
        #expect(limiter.take(auth, key: "ip:192.0.2.4") == RateLimitDecision(allowed: false, remaining: 0, resetSeconds: 55, retryAfterSeconds: 1))
        clock.advance(by: 0.5)
        #expect(limiter.take(auth, key: "ip:192.0.2.4") == RateLimitDecision(allowed: true, remaining: 0, resetSeconds: 60, retryAfterSeconds: 0))
        // Refill stops at the capacity: an hour later the bucket holds 10, not 600.
        clock.advance(by: 3600)
        #expect(limiter.take(auth, key: "ip:192.0.2.4") == RateLimitDecision(allowed: true, remaining: 9, resetSeconds: 6, retryAfterSeconds: 0))
        // Other keys, and other policies on the same key, have buckets of their own.
        #expect(limiter.take(auth, key: "ip:192.0.2.5").remaining == 9)
        let writes = try RateLimitPolicy(name: "writes", requests: 3, perSeconds: 1)
        #expect(limiter.take(writes, key: "ip:192.0.2.4").remaining == 2)
    }

    @Test("reset and retry-after are rounded up to whole seconds, from an interval that is not whole")
    func rounding() throws {
        let shares = try RateLimitPolicy(name: "shares", requests: 3, perSeconds: 10)   // one per 3⅓ s
        let limiter = RateLimiter(clock: clock)
        #expect(limiter.take(shares, key: "k").resetSeconds == 4)
        #expect(limiter.take(shares, key: "k").resetSeconds == 7)
        #expect(limiter.take(shares, key: "k").resetSeconds == 10)
        let refused = limiter.take(shares, key: "k")
        #expect(!refused.allowed && refused.retryAfterSeconds == 4 && refused.resetSeconds == 10)
        clock.advance(by: 3.3)
        #expect(limiter.take(shares, key: "k").retryAfterSeconds == 1)
        clock.advance(by: 0.04)
        #expect(limiter.take(shares, key: "k").allowed)
        // A full bucket read with cost 0 is full: nothing to wait for.
        #expect(limiter.take(shares, key: "fresh", cost: 0) == RateLimitDecision(allowed: true, remaining: 3, resetSeconds: 0, retryAfterSeconds: 0))
        #expect(limiter.keptKeys(for: shares) == 1)
    }

    @Test("a request costing more than one pays all or nothing; more than the capacity is never allowed")
    func cost() throws {
        let policy = try RateLimitPolicy(name: "uploads", capacity: 5, refillPerSecond: 1, window: 5)
        let limiter = RateLimiter(clock: clock)
        #expect(limiter.take(policy, key: "k", cost: 3).remaining == 2)
        let refused = limiter.take(policy, key: "k", cost: 3)
        #expect(!refused.allowed && refused.remaining == 2 && refused.retryAfterSeconds == 1)
        #expect(limiter.take(policy, key: "k", cost: 2).remaining == 0)
        clock.advance(by: 3600)
        let tooBig = limiter.take(policy, key: "k", cost: 6)
        #expect(!tooBig.allowed && tooBig.remaining == 5 && tooBig.retryAfterSeconds >= 1)
    }

    @Test("several keys: all must allow; a refusal gives back what the others paid")
    func severalKeys() throws {
        let policy = try RateLimitPolicy(name: "writes", requests: 2, perSeconds: 60)
        let limiter = RateLimiter(clock: clock)
        #expect(limiter.take(policy, key: "ip:192.0.2.4", cost: 2).allowed)
        let refused = limiter.take(policy, keys: ["token:7", "ip:192.0.2.4"])
        #expect(!refused.allowed && refused.retryAfterSeconds == 30)
        // The token's bucket is still full.
        #expect(limiter.take(policy, key: "token:7", cost: 0).remaining == 2)
        let both = limiter.take(policy, keys: ["token:7", "ip:198.51.100.1"])
        #expect(both == RateLimitDecision(allowed: true, remaining: 1, resetSeconds: 30, retryAfterSeconds: 0))
        #expect(limiter.take(policy, keys: []).allowed)
    }

    @Test("policies refuse impossible numbers and write their field exactly")
    func policyValidation() throws {
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "auth", requests: 0, perSeconds: 60) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "auth", requests: 10, perSeconds: 0) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "", requests: 10, perSeconds: 60) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "인증", requests: 10, perSeconds: 60) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "auth", capacity: 1, refillPerSecond: 0, window: 1) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "auth", capacity: 1, refillPerSecond: .nan, window: 1) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "auth", capacity: 1, refillPerSecond: -1, window: 1) }
        #expect(throws: RateLimitPolicyError.self) { try RateLimitPolicy(name: "auth", capacity: 1_000_000, refillPerSecond: 1e-9, window: 1) }
        do {
            _ = try RateLimitPolicy(name: "auth", requests: 0, perSeconds: 60)
        } catch {
            #expect(error.description == "Rate limit policy `auth` allows 0 requests at once; allow at least 1.")
        }
        #expect(try RateLimitPolicy(name: "auth", requests: 10, perSeconds: 60).fieldValue == #""auth";q=10;w=60"#)
        #expect(try RateLimitPolicy(name: #"a"b\c"#, requests: 1, perSeconds: 1).fieldValue == #""a\"b\\c";q=1;w=1"#)
    }

    @Test("a million distinct keys keep memory bounded and do not refill a busy caller's bucket")
    func floodOfKeys() throws {
        let policy = try RateLimitPolicy(name: "public", requests: 5, perSeconds: 300)
        let limiter = RateLimiter(clock: clock, maximumKeysPerPolicy: 4096, shardCount: 8)
        for _ in 0..<5 { #expect(limiter.take(policy, key: "ip:192.0.2.4").allowed) }
        #expect(!limiter.take(policy, key: "ip:192.0.2.4").allowed)
        var mostKept = 0
        for index in 0..<1_000_000 {
            _ = limiter.take(policy, key: "ip:flood-\(index)")
            if index % 50_000 == 0 {
                mostKept = max(mostKept, limiter.keptKeys(for: policy))
                // The busy caller's bucket is nearly empty: never among the fullest, so never forgotten.
                #expect(!limiter.take(policy, key: "ip:192.0.2.4").allowed, "at key \(index)")
            }
            if index % 200_000 == 0 { clock.advance(by: 1) }
        }
        mostKept = max(mostKept, limiter.keptKeys(for: policy))
        #expect(mostKept <= 4096)
        #expect(!limiter.take(policy, key: "ip:192.0.2.4").allowed)

        // Full buckets are the first to go: once everything has refilled, new keys push out
        // the flood and nothing is lost.
        clock.advance(by: 3600)
        for index in 0..<10_000 { _ = limiter.take(policy, key: "ip:later-\(index)") }
        #expect(limiter.keptKeys(for: policy) <= 4096)
        #expect(limiter.take(policy, key: "ip:later-9999", cost: 0).remaining == 4)
    }

    @Test("threads taking from one bucket at once never get more than its capacity")
    func concurrentTakes() throws {
        let policy = try RateLimitPolicy(name: "writes", requests: 1000, perSeconds: 3600)
        let limiter = RateLimiter(clock: clock, shardCount: 4)
        let allowed = Atomic<Int>(0)
        let allowedOther = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for _ in 0..<400 {
                if limiter.take(policy, key: "token:1").allowed { allowed.add(1, ordering: .relaxed) }
                if limiter.take(policy, keys: ["token:2", "ip:worker-\(worker)"]).allowed { allowedOther.add(1, ordering: .relaxed) }
            }
        }
        #expect(allowed.load(ordering: .relaxed) == 1000)
        #expect(allowedOther.load(ordering: .relaxed) == 1000)
        #expect(limiter.take(policy, key: "token:2", cost: 0).remaining == 0)
    }
}
