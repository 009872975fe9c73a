import BelayCore
import BelayHTTP
import Foundation

/// How much one caller may ask of the API besides signing in: changes per member, share
/// events per member, and public pages per client address. Beyond a limit the answer is 429
/// `rate_limited` with `Retry-After` and the `RateLimit` / `RateLimit-Policy` fields. A limit
/// of 0 is switched off (a club whose gateway limits callers already).
public struct APIRateLimits: Sendable {
    public let limiter: RateLimiter
    /// POST, PUT, PATCH and DELETE by one member (whatever token they use); nil: off.
    public let writes: RateLimitPolicy?
    /// Share events by one member; nil: off.
    public let shareEvents: RateLimitPolicy?
    /// Share pages, badge files and hold artwork, per client address; nil: off.
    public let publicPages: RateLimitPolicy?

    /// Each limit is in requests a minute; 0 switches it off.
    /// - Throws: `RateLimitPolicyError` for a limit that cannot work (the configuration is validated first).
    public init(writesPerMinute: Int, shareEventsPerMinute: Int, publicPerMinute: Int,
                clock: any TimeSource = SystemTimeSource()) throws {
        limiter = RateLimiter(clock: clock)
        writes = try RateLimitPolicy.switchable("writes", writesPerMinute, perSeconds: 60)
        shareEvents = try RateLimitPolicy.switchable("share-events", shareEventsPerMinute, perSeconds: 60)
        publicPages = try RateLimitPolicy.switchable("public", publicPerMinute, perSeconds: 60)
    }

    static let shareEventsRoute = "/v1/rewards/{id}/share-events"

    /// Limits changes per member; share events count against their own limit instead.
    func writesMiddleware() -> RateLimitMiddleware<APIContext> {
        RateLimitMiddleware(policy: writes, limiter: limiter) { request, context in
            guard request.method != .get, request.method != .head, context.route != Self.shareEventsRoute,
                  let user = context.user else { return nil }
            return ["user:\(user.userID)"]
        }
    }

    /// Limits share events per member.
    func shareEventsMiddleware() -> RateLimitMiddleware<APIContext> {
        RateLimitMiddleware(policy: shareEvents, limiter: limiter) { _, context in
            guard context.route == Self.shareEventsRoute, let user = context.user else { return nil }
            return ["user:\(user.userID)"]
        }
    }

    /// Limits the public pages per client address.
    func publicMiddleware() -> RateLimitMiddleware<APIContext> {
        RateLimitMiddleware(policy: publicPages, limiter: limiter) { request, _ in ["ip:" + request.remoteAddress] }
    }
}

extension RateLimitPolicy {
    /// `requests` per `perSeconds` under `name`, or nil for 0: the limit is switched off.
    /// - Throws: `RateLimitPolicyError` for a negative number of requests.
    static func switchable(_ name: String, _ requests: Int, perSeconds: Int) throws -> RateLimitPolicy? {
        requests == 0 ? nil : try RateLimitPolicy(name: name, requests: requests, perSeconds: perSeconds)
    }
}
