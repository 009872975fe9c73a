import BelayCore
import BelayHTTP
import Foundation

/// The limits on signing in: requests to `/v1/auth/*` per client address, and mailed codes
/// per email address (so nobody can fill a stranger's inbox from many addresses). A limit of 0
/// is switched off.
public struct AuthRateLimits: Sendable {
    public let limiter: RateLimiter
    /// Nil: off.
    public let perAddress: RateLimitPolicy?
    /// Nil: off.
    public let perEmail: RateLimitPolicy?

    /// Requests a minute per address and mailed codes an hour per email address; 0 switches a limit off.
    /// - Throws: `RateLimitPolicyError` for a limit that cannot work (validated with the configuration first).
    public init(addressRequestsPerMinute: Int, emailsPerHour: Int, clock: any TimeSource = SystemTimeSource()) throws {
        limiter = RateLimiter(clock: clock)
        perAddress = try RateLimitPolicy.switchable("auth", addressRequestsPerMinute, perSeconds: 60)
        perEmail = try RateLimitPolicy.switchable("auth-email", emailsPerHour, perSeconds: 3_600)
    }

    /// The middleware limiting every `/v1/auth/*` request by client address.
    func addressMiddleware<Context: RequestContext>() -> RateLimitMiddleware<Context> {
        RateLimitMiddleware(policy: perAddress, limiter: limiter) { request, _ in ["ip:" + request.remoteAddress] }
    }

    /// Counts one request from `address` against the limit per client address (the console's
    /// sign-in forms, which answer HTML rather than go through the middleware).
    /// - Throws: `HTTPError` 429 when the address has had its share.
    func checkAddress(_ address: String) throws {
        guard let perAddress else { return }
        try limiter.check(perAddress, keys: ["ip:" + address])
    }

    /// Counts one mailed code to `email`.
    /// - Throws: `HTTPError` 429 when the address has had its share.
    func checkEmail(_ email: String) throws {
        guard let perEmail else { return }
        try limiter.check(perEmail, keys: ["email:" + Crypto.hex(Crypto.sha256(Array(email.utf8)))])
    }
}
