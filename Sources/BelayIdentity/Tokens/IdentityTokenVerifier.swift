import BelayCore
import BelayOutbound
import Foundation
import Synchronization

/// How one provider's ID tokens are checked.
public struct IdentityTokenVerifierSettings: Sendable {
    public var provider: IdentityProvider
    /// Where the provider publishes its signing keys (a JWKS).
    public var jwksURL: String
    /// The accepted `aud` values: this club's app and web client IDs at the provider.
    public var clientIDs: [String]
    /// How far `exp`, `iat` and `nbf` may be off, for clocks that disagree.
    public var leeway: TimeInterval
    /// A token naming an unknown key fetches the keys again at most once per this interval.
    public var keysRefetchInterval: TimeInterval
    /// Keys older than this are fetched again before use (a fetch that fails keeps them).
    public var keysMaximumAge: TimeInterval
    public var fetchTimeout: TimeInterval
    /// Whether the JWKS may be on a loopback or private address (tests, on-premises providers).
    public var allowPrivateAddresses: Bool

    public init(provider: IdentityProvider, jwksURL: String, clientIDs: [String], leeway: TimeInterval = 60,
                keysRefetchInterval: TimeInterval = 60, keysMaximumAge: TimeInterval = 6 * 3600,
                fetchTimeout: TimeInterval = 5, allowPrivateAddresses: Bool = true) {
        self.provider = provider
        self.jwksURL = jwksURL
        self.clientIDs = clientIDs
        self.leeway = leeway
        self.keysRefetchInterval = keysRefetchInterval
        self.keysMaximumAge = keysMaximumAge
        self.fetchTimeout = fetchTimeout
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    /// Apple's published keys.
    public static let appleJWKSURL = "https://appleid.apple.com/auth/keys"
    /// Google's published keys.
    public static let googleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"
}

/// Verifies one provider's ID tokens (compact JWS, RS256 or ES256) against its published
/// keys, fetched on first use and kept in memory.
///
/// Threading: safe from any thread. Verifying with known keys takes a short lock; fetching
/// the keys happens under a second lock, so concurrent tokens naming a new key cause one
/// fetch, and tokens with known keys never wait for it. Kept keys past half their
/// `keysMaximumAge` are refreshed on a background thread while they still answer, so a busy
/// server never fetches on a request. A caller that must not wait on the network (an HTTP
/// thread) asks `needsKeyFetch` first and verifies elsewhere when it says so.
public final class IdentityTokenVerifier: Sendable {
    private struct KeyCache: Sendable {
        var keys: [String: JSONWebKey] = [:]
        /// Monotonic nanoseconds of the last fetch that brought keys.
        var fetchedAt: UInt64?
        /// Monotonic nanoseconds of the last fetch tried, and its refusal when it failed.
        var attemptedAt: UInt64?
        var failure: IdentityTokenError?
        /// A refresh ahead of expiry is under way on a background thread.
        var refreshing = false
    }

    /// After a failed fetch, the next is tried after at most this long.
    static let failedFetchRetry: TimeInterval = 30

    public let settings: IdentityTokenVerifierSettings
    private let clock: any TimeSource
    private let cache = Mutex(KeyCache())
    private let fetching = Mutex(())
    private let handles = CurlHandlePool(responseLimit: 1 << 20, maximumIdle: 1)

    public init(settings: IdentityTokenVerifierSettings, clock: any TimeSource) {
        self.settings = settings
        self.clock = clock
    }

    /// Verifies a compact JWS ID token: its algorithm (RS256 or ES256 only), its signature with
    /// the provider's key it names, its issuer, audience (and Google's `azp`), expiry, issue
    /// time and nonce.
    ///
    /// For Apple, `nonce` is the raw nonce the app generated, and the token's `nonce` claim
    /// must be the lowercase SHA-256 hex of it. For Google, the token's nonce must equal
    /// `nonce` exactly. With `nonce` nil, the token's nonce is not checked.
    /// - Throws: `IdentityTokenError` with the code of the first check that failed;
    ///   `keysUnavailable` (with `retryAfterSeconds`) when the keys could not be fetched and
    ///   no kept key answers.
    public func verify(_ token: String, nonce: String?) throws(IdentityTokenError) -> VerifiedIdentityToken {
        let jws = try CompactJWS.parse(token)
        let algorithm = jws.header["alg"]?.stringValue ?? "(none given)"
        guard algorithm == "RS256" || algorithm == "ES256" else {
            throw IdentityTokenError(code: .algorithmNotAllowed,
                                     detail: "the token is signed with \(algorithm); only RS256 and ES256 are accepted")
        }
        if jws.header["crit"] != nil {
            throw CompactJWS.malformed("the token's header has critical extensions (crit), which are not supported")
        }
        guard let keyID = jws.header["kid"]?.stringValue else {
            throw CompactJWS.malformed("the token's header names no key (kid)")
        }
        let key = try key(named: keyID)
        let signatureKey = try compatibleKey(key, algorithm: algorithm)
        guard signatureKey.verifies(signature: jws.signature, of: jws.signingInput) else {
            throw IdentityTokenError(code: .badSignature,
                                     detail: "the token's signature does not verify with \(settings.provider.displayName)'s key \(keyID); ask the app to sign in again")
        }
        return try checkClaims(jws.claims, token: token, nonce: nonce)
    }

    /// Whether verifying `token` may wait on the network: its key is not among the kept keys,
    /// or they are too old to use. A token whose header cannot be read needs no fetch (it is
    /// refused as it is).
    public func needsKeyFetch(_ token: String) -> Bool {
        guard let jws = try? CompactJWS.parse(token), let keyID = jws.header["kid"]?.stringValue else { return false }
        let maximumAge = nanoseconds(settings.keysMaximumAge)
        return cache.withLock { state in
            guard let fetchedAt = state.fetchedAt, clock.monotonicNanoseconds() &- fetchedAt < maximumAge else { return true }
            return state.keys[keyID] == nil
        }
    }

    // MARK: Keys

    /// Starts a fetch of the keys on a background thread when the kept ones are past half their
    /// maximum age (and no fetch was tried within `keysRefetchInterval`): they keep answering
    /// meanwhile, and a fetch that fails leaves them as they are.
    private func refreshAheadIfOld(now: UInt64) {
        let starts = cache.withLock { state -> Bool in
            guard !state.refreshing, let fetchedAt = state.fetchedAt,
                  now &- fetchedAt >= nanoseconds(settings.keysMaximumAge / 2) else { return false }
            if let attempted = state.attemptedAt, now &- attempted < nanoseconds(settings.keysRefetchInterval) { return false }
            state.refreshing = true
            return true
        }
        guard starts else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            fetching.withLock { _ in
                let started = clock.monotonicNanoseconds()
                do {
                    let keys = try fetchKeys()
                    cache.withLock { $0 = KeyCache(keys: keys, fetchedAt: started, attemptedAt: started, failure: nil) }
                } catch {
                    cache.withLock {
                        $0.attemptedAt = started
                        $0.refreshing = false
                    }
                }
            }
        }
    }

    private func compatibleKey(_ key: JSONWebKey, algorithm: String) throws(IdentityTokenError) -> SignatureKey {
        if case let .unusable(reason) = key.material {
            throw IdentityTokenError(code: .malformedKeys, detail: "\(settings.provider.displayName)'s key \(key.id) at \(settings.jwksURL) is unusable: \(reason)")
        }
        if let use = key.use, use != "sig" {
            throw IdentityTokenError(code: .keyMismatch, detail: "the key \(key.id) is for \"\(use)\", not for signatures (sig)")
        }
        if let declared = key.algorithm, declared != algorithm {
            throw IdentityTokenError(code: .keyMismatch, detail: "the token is signed with \(algorithm) but the key \(key.id) is for \(declared)")
        }
        switch (algorithm, key.material) {
        case ("RS256", .rsa(let made)), ("ES256", .p256(let made)):
            return made
        default:
            let wanted = algorithm == "RS256" ? "an RSA key" : "an EC P-256 key"
            throw IdentityTokenError(code: .keyMismatch, detail: "the token is signed with \(algorithm), which needs \(wanted), but the key \(key.id) is \(key.kindDescription)")
        }
    }

    /// The key `id`, from memory or, when unknown or old, from a fetch (at most one per
    /// `keysRefetchInterval`, or per `failedFetchRetry` after a failure).
    private func key(named id: String) throws(IdentityTokenError) -> JSONWebKey {
        let maximumAge = nanoseconds(settings.keysMaximumAge)
        let checkedAt = clock.monotonicNanoseconds()
        if let known = cache.withLock({ state in
            state.fetchedAt.flatMap { checkedAt &- $0 < maximumAge ? state.keys[id] : nil }
        }) {
            refreshAheadIfOld(now: checkedAt)
            return known
        }
        return try fetching.withLock { _ throws(IdentityTokenError) -> JSONWebKey in
            let state = cache.withLock { $0 }
            let now = clock.monotonicNanoseconds()
            let fresh = state.fetchedAt.map { now &- $0 < maximumAge } ?? false
            if fresh, let known = state.keys[id] { return known }
            if let attempted = state.attemptedAt {
                let wait = nanoseconds(state.failure == nil ? settings.keysRefetchInterval
                                                            : min(settings.keysRefetchInterval, Self.failedFetchRetry))
                let elapsed = now &- attempted
                if elapsed < wait {
                    if let known = state.keys[id] { return known }
                    if let failure = state.failure {
                        throw IdentityTokenError(code: failure.code, detail: failure.detail,
                                                 retryAfterSeconds: failure.code == .keysUnavailable ? Self.wholeSeconds(wait - elapsed) : nil)
                    }
                    throw unknownKey(id)
                }
            }
            let keys: [String: JSONWebKey]
            do throws(IdentityTokenError) {
                keys = try fetchKeys()
            } catch {
                cache.withLock {
                    $0.attemptedAt = now
                    $0.failure = error
                }
                // Keys kept from an earlier fetch still answer while the provider is down.
                if let known = state.keys[id] { return known }
                throw error
            }
            cache.withLock { $0 = KeyCache(keys: keys, fetchedAt: now, attemptedAt: now, failure: nil) }
            guard let found = keys[id] else { throw unknownKey(id) }
            return found
        }
    }

    private func unknownKey(_ id: String) -> IdentityTokenError {
        IdentityTokenError(code: .unknownKey,
                           detail: "\(settings.provider.displayName) publishes no key \(id) at \(settings.jwksURL); the token is not \(settings.provider.displayName)'s, or was signed with a key since withdrawn")
    }

    private func fetchKeys() throws(IdentityTokenError) -> [String: JSONWebKey] {
        let retry = Self.wholeSeconds(nanoseconds(min(settings.keysRefetchInterval, Self.failedFetchRetry)))
        let call = HTTPCall(url: settings.jwksURL, form: nil, timeout: settings.fetchTimeout,
                            allowPrivateAddresses: settings.allowPrivateAddresses,
                            privateAddressSetting: "allowPrivateAddresses in the \(settings.provider.rawValue) sign-in settings")
        let answer: HTTPAnswer
        do {
            answer = try call.perform(with: handles)
        } catch {
            throw IdentityTokenError(code: .keysUnavailable,
                                     detail: "\(settings.provider.displayName)'s signing keys could not be fetched: \(error); try again later",
                                     retryAfterSeconds: retry)
        }
        guard answer.status == 200 else {
            throw IdentityTokenError(code: .keysUnavailable,
                                     detail: "\(settings.provider.displayName)'s signing keys could not be fetched: \(settings.jwksURL) answered HTTP \(answer.status); try again later",
                                     retryAfterSeconds: retry)
        }
        return try JSONWebKeySet.parse(answer.body, from: settings.jwksURL)
    }

    // MARK: Claims

    private func checkClaims(_ claims: JSONObject, token: String, nonce: String?) throws(IdentityTokenError) -> VerifiedIdentityToken {
        let provider = settings.provider
        let issuer = claims["iss"]?.stringValue
        guard let issuer, provider.issuers.contains(issuer) else {
            throw IdentityTokenError(code: .wrongIssuer,
                                     detail: "the token was issued by \(issuer.map { "\"\($0)\"" } ?? "no one (no iss)"), not by \(provider.displayName) (\(provider.issuers.joined(separator: " or ")))")
        }
        let audiences: [String]
        switch claims["aud"] {
        case let .string(single)?: audiences = [single]
        case let .array(many)?: audiences = many.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(where: settings.clientIDs.contains) else {
            throw IdentityTokenError(code: .wrongAudience,
                                     detail: "the token is for \(audiences.isEmpty ? "no audience" : audiences.joined(separator: ", ")), not for one of this club's \(provider.displayName) client IDs; check the client IDs in the sign-in settings")
        }
        if provider == .google, let party = claims["azp"] {
            guard let party = party.stringValue, settings.clientIDs.contains(party) else {
                throw IdentityTokenError(code: .wrongAuthorizedParty,
                                         detail: "the token was obtained by \(party.stringValue ?? "an unnamed party") (azp), not by one of this club's Google client IDs")
            }
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw CompactJWS.malformed("the token names no subject (sub)")
        }
        let expiresAt = try instant(claims, "exp")
        let issuedAt = try instant(claims, "iat")
        let now = clock.now()
        if expiresAt < now.addingTimeInterval(-settings.leeway) {
            throw IdentityTokenError(code: .expired, detail: "the token expired at \(RFC3339.string(from: expiresAt)); ask the app to sign in again")
        }
        if issuedAt > now.addingTimeInterval(settings.leeway) {
            throw IdentityTokenError(code: .issuedInFuture,
                                     detail: "the token says it was issued at \(RFC3339.string(from: issuedAt)), later than now; check this server's clock")
        }
        // RFC 7519 §4.1.5: a token must not be accepted before its `nbf`, when it has one.
        if claims["nbf"] != nil {
            let notBefore = try instant(claims, "nbf")
            if notBefore > now.addingTimeInterval(settings.leeway) {
                throw IdentityTokenError(code: .notYetValid,
                                         detail: "the token is not valid before \(RFC3339.string(from: notBefore)) (nbf), later than now; ask the app to sign in again, and check this server's clock")
            }
        }
        try checkNonce(claims["nonce"], expected: nonce)
        return VerifiedIdentityToken(
            provider: provider, subject: subject, email: claims["email"]?.stringValue,
            emailVerified: Self.flag(claims["email_verified"]), isPrivateRelayEmail: Self.flag(claims["is_private_email"]),
            issuedAt: issuedAt, expiresAt: expiresAt, tokenDigest: Crypto.hex(Crypto.sha256(Array(token.utf8))))
    }

    private func checkNonce(_ claim: JSONValue?, expected nonce: String?) throws(IdentityTokenError) {
        guard let nonce else { return }
        guard let claim else {
            throw IdentityTokenError(code: .missingNonce, detail: "the token carries no nonce, but the sign-in sent one; ask the app to sign in again")
        }
        let wanted = settings.provider == .apple ? Crypto.hex(Crypto.sha256(Array(nonce.utf8))) : nonce
        guard let value = claim.stringValue, Self.constantTimeEqual(value, wanted) else {
            let how = settings.provider == .apple ? "the SHA-256 of the nonce sent with the sign-in" : "the nonce sent with the sign-in"
            throw IdentityTokenError(code: .wrongNonce, detail: "the token's nonce is not \(how); ask the app to sign in again")
        }
    }

    private func instant(_ claims: JSONObject, _ name: String) throws(IdentityTokenError) -> Date {
        guard case let .number(number)? = claims[name], let seconds = Double(number.text), seconds.isFinite,
              (0...1e11).contains(seconds) else {
            throw CompactJWS.malformed("the token's \(name) is missing or not a time in seconds")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `true` or the string "true" (Apple sends booleans as strings).
    private static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(true)?, .string("true")?: true
        default: false
        }
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func nanoseconds(_ interval: TimeInterval) -> UInt64 { UInt64(max(0, interval) * 1e9) }

    private static func wholeSeconds(_ nanoseconds: UInt64) -> Int { max(1, Int((Double(nanoseconds) / 1e9).rounded(.up))) }
}
