/// A limit on how often one caller may do something, as a token bucket: a caller may spend up
/// to `capacity` requests at once, and earns them back at `refillPerSecond`.
///
/// Clients are told of it in `RateLimit-Policy` as a quota `q` (the capacity: the most a caller
/// can have in hand) over a window `w` (seconds):
///
/// ```swift
/// let auth = try RateLimitPolicy(name: "auth", requests: 10, perSeconds: 60)   // "auth";q=10;w=60
/// ```
///
/// Policies are values, compared as a whole: two policies that share a name but not their
/// numbers keep separate buckets in a `RateLimiter`.
public struct RateLimitPolicy: Sendable, Hashable, CustomStringConvertible {
    /// What the limit protects, e.g. `auth`, `writes`, `shares`, `public`; names the policy in
    /// the response fields and in the 429 problem.
    public let name: String
    /// The burst: requests a caller with a full bucket may make at once.
    public let capacity: Int
    /// Requests earned back per second.
    public let refillPerSecond: Double
    /// The seconds the policy is stated over (`w` in `RateLimit-Policy`).
    public let window: Int
    /// Time to earn back one request, in nanoseconds; whole nanoseconds, so that the limiter
    /// counts exactly.
    let nanosecondsPerToken: UInt64
    /// The name as a structured-field string, and the `RateLimit-Policy` member: made once, since
    /// every limited response carries them.
    let quotedName: String
    /// `"auth";q=10;w=60`: the policy as one member of a `RateLimit-Policy` field.
    public let fieldValue: String

    /// The longest a bucket may take to fill from empty (2^60 ns, about 36 years): keeps every sum of
    /// nanoseconds the limiter makes far from overflow.
    static let maximumFillNanoseconds: UInt64 = 1 << 60

    /// A policy of `capacity` requests at once, earned back at `refillPerSecond`, stated to
    /// clients over `window` seconds.
    /// - Throws: `RateLimitPolicyError` when the name is empty or not printable ASCII, the
    ///   capacity is below 1, the refill rate is not a positive number (or more than one
    ///   request per nanosecond), the window is below 1 second, or an empty bucket would take
    ///   longer than about 36 years to fill.
    public init(name: String, capacity: Int, refillPerSecond: Double, window: Int) throws(RateLimitPolicyError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            throw RateLimitPolicyError(kind: .invalidName(name))
        }
        guard capacity >= 1 else { throw RateLimitPolicyError(kind: .capacityBelowOne(name: name, capacity: capacity)) }
        guard refillPerSecond.isFinite, refillPerSecond > 0, refillPerSecond <= 1e9 else {
            throw RateLimitPolicyError(kind: .invalidRefill(name: name, refillPerSecond: refillPerSecond))
        }
        guard window >= 1 else { throw RateLimitPolicyError(kind: .windowBelowOneSecond(name: name, window: window)) }
        let perToken = (1e9 / refillPerSecond).rounded()
        guard perToken < Double(Self.maximumFillNanoseconds) else {
            throw RateLimitPolicyError(kind: .tooSlow(name: name))
        }
        let nanoseconds = max(1, UInt64(perToken))
        let (fill, overflow) = nanoseconds.multipliedReportingOverflow(by: UInt64(capacity))
        guard !overflow, fill <= Self.maximumFillNanoseconds else { throw RateLimitPolicyError(kind: .tooSlow(name: name)) }
        self.name = name
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
        self.window = window
        nanosecondsPerToken = nanoseconds
        quotedName = Self.structuredString(name)
        fieldValue = "\(quotedName);q=\(capacity);w=\(window)"
    }

    /// A quota of `requests` per `perSeconds` seconds: a burst of `requests`, earned back
    /// evenly over the window (`requests / perSeconds` a second).
    /// - Throws: `RateLimitPolicyError` when `requests` or `perSeconds` is below 1 or the name
    ///   is empty or not printable ASCII (see `init(name:capacity:refillPerSecond:window:)`).
    public init(name: String, requests: Int, perSeconds: Int) throws(RateLimitPolicyError) {
        guard perSeconds >= 1 else { throw RateLimitPolicyError(kind: .windowBelowOneSecond(name: name, window: perSeconds)) }
        guard requests >= 1 else { throw RateLimitPolicyError(kind: .capacityBelowOne(name: name, capacity: requests)) }
        try self.init(name: name, capacity: requests, refillPerSecond: Double(requests) / Double(perSeconds), window: perSeconds)
    }

    /// The quota stated to clients (`q`): the capacity, the most a caller can have in hand, so
    /// that `RateLimit`'s remaining `r` never exceeds it.
    public var quota: Int { capacity }

    public var description: String { fieldValue }

    /// `name` as a structured-field string (RFC 8941 §3.3.3): quoted, with `"` and `\` escaped.
    static func structuredString(_ name: String) -> String {
        var quoted = "\""
        for character in name.unicodeScalars {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.unicodeScalars.append(character)
        }
        quoted.append("\"")
        return quoted
    }
}

/// Why a `RateLimitPolicy` could not be made: what was wrong with which policy, and what to use.
public struct RateLimitPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case invalidName(String)
        case capacityBelowOne(name: String, capacity: Int)
        case invalidRefill(name: String, refillPerSecond: Double)
        case windowBelowOneSecond(name: String, window: Int)
        case tooSlow(name: String)
    }

    let kind: Kind

    public var description: String {
        switch kind {
        case let .invalidName(name):
            "Rate limit policy name `\(name)` is not usable: give a non-empty name of printable ASCII characters, e.g. `auth`."
        case let .capacityBelowOne(name, capacity):
            "Rate limit policy `\(name)` allows \(capacity) requests at once; allow at least 1."
        case let .invalidRefill(name, refillPerSecond):
            "Rate limit policy `\(name)` earns back \(refillPerSecond) requests a second; give a positive number, at most 1e9."
        case let .windowBelowOneSecond(name, window):
            "Rate limit policy `\(name)` is stated over \(window) seconds; use a window of at least 1 second."
        case let .tooSlow(name):
            "Rate limit policy `\(name)` would take more than 36 years to fill an empty bucket; raise its refill rate or lower its capacity."
        }
    }
}
