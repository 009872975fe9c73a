import BelayCore
import BelayDomain
import BelayIdentity

/// Signing a member in, whichever way they prove who they are: Apple's or Google's ID token,
/// an identity already proven (an emailed code), or the second step of a held sign-in. The
/// API's `/v1/auth/*` routes decode a request, call one of these and encode the outcome.
///
/// A proof that has to call a provider (its keys to fetch, Apple's authorization code to
/// exchange) is checked on `outbound`'s threads, never on the caller's; one that does not is
/// checked at once. Either way the session's write joins the store's next group commit and
/// `completion` runs on the thread that finishes: keep it short.
public struct SignIn: Sendable {
    let accounts: AccountService
    let secondFactors: SecondFactorService
    let apple: IdentityTokenVerifier?
    let google: IdentityTokenVerifier?
    let appleAccounts: AppleAccountClient?
    let outbound: BoundedWorkQueue

    /// - Parameters:
    ///   - apple, google: each provider's token verifier; nil where that way of signing in is off.
    ///   - appleAccounts: exchanges Apple's authorization code for the refresh token revoked
    ///     when the member leaves; nil where the club has no Apple key.
    ///   - outbound: where proofs that call a provider run; its capacity bounds how many wait.
    public init(accounts: AccountService, secondFactors: SecondFactorService, apple: IdentityTokenVerifier?,
                google: IdentityTokenVerifier?, appleAccounts: AppleAccountClient?, outbound: BoundedWorkQueue) {
        self.accounts = accounts
        self.secondFactors = secondFactors
        self.apple = apple
        self.google = google
        self.appleAccounts = appleAccounts
        self.outbound = outbound
    }

    /// Signs in with an Apple ID token checked against `nonce` (the raw nonce whose SHA-256 the
    /// token carries). `name` is kept for a new account (Apple gives it once); a non-empty
    /// `authorizationCode` is exchanged for a refresh token, and a failed exchange does not
    /// stop the sign-in.
    /// - Throws: `SignInRefusal.methodDisabled` when Apple is not set up, `.providersBusy` when
    ///   too many sign-ins wait for providers. Every other refusal reaches `completion`:
    ///   `IdentityTokenError` for the token, `DomainError` for the account.
    public func withApple(identityToken: String, nonce: String, name: String?, authorizationCode: String?,
                          details: SignInDetails, then completion: @escaping @Sendable (Result<SignInOutcome, any Error>) -> Void) throws {
        guard let verifier = apple else { throw SignInRefusal.methodDisabled(method: "Sign in with Apple", setting: "auth.apple.client_ids") }
        let exchange = authorizationCode.flatMap { code in code.isEmpty ? nil : appleAccounts.map { apple in (apple, code) } }
        let callsOut = exchange != nil || verifier.needsKeyFetch(identityToken)
        try signIn(callingOut: callsOut, details: details, then: completion) {
            let token = try verifier.verify(identityToken, nonce: nonce)
            let refreshToken = exchange.flatMap { try? $0.0.exchange(authorizationCode: $0.1) }
            return ProvenIdentity(method: .apple, subject: token.subject, email: token.email, emailVerified: token.emailVerified,
                                  name: name, tokenDigest: token.tokenDigest, tokenExpiresAt: token.expiresAt,
                                  appleRefreshToken: refreshToken)
        }
    }

    /// Signs in with a Google ID token (its `nonce` checked when given).
    /// - Throws: as `withApple`.
    public func withGoogle(idToken: String, nonce: String?, details: SignInDetails,
                           then completion: @escaping @Sendable (Result<SignInOutcome, any Error>) -> Void) throws {
        guard let verifier = google else { throw SignInRefusal.methodDisabled(method: "Sign in with Google", setting: "auth.google.client_ids") }
        try signIn(callingOut: verifier.needsKeyFetch(idToken), details: details, then: completion) {
            let token = try verifier.verify(idToken, nonce: nonce)
            return ProvenIdentity(method: .google, subject: token.subject, email: token.email, emailVerified: token.emailVerified,
                                  name: nil, tokenDigest: token.tokenDigest, tokenExpiresAt: token.expiresAt)
        }
    }

    /// Signs in an identity already proven (an emailed code or link): the session is opened, or
    /// held for the second factor where the account has one. Refusals reach `completion`.
    public func withIdentity(_ identity: ProvenIdentity, details: SignInDetails,
                             then completion: @escaping @Sendable (Result<SignInOutcome, any Error>) -> Void) {
        do {
            // An admin without a second factor is refused where the club requires one (the
            // console instead sends them to enrol).
            if let held = try secondFactors.holdSignIn(identity, device: details.device, enforcingAdminRule: true) {
                return completion(.success(.secondFactorRequired(held)))
            }
        } catch {
            return completion(.failure(error))
        }
        accounts.signIn(identity, device: details.device, inviteCode: details.inviteCode, locale: details.locale) { outcome in
            completion(outcome.map(SignInOutcome.signedIn))
        }
    }

    /// Completes a held sign-in with the authenticator's current code or an unused recovery code.
    /// - Throws: `DomainError` when the challenge is unknown or expired or the code is wrong;
    ///   the session's own refusals reach `completion`.
    public func completeSecondFactor(challenge: String, code: String,
                                     then completion: @escaping @Sendable (Result<SessionGrant, any Error>) -> Void) throws {
        let pass = try secondFactors.completeSignIn(token: challenge, code: code)
        accounts.signIn(pass.identity, device: pass.device, then: completion)
    }

    /// Proves the identity with `prove`, on `outbound` when it calls a provider, and signs it in.
    private func signIn(callingOut: Bool, details: SignInDetails,
                        then completion: @escaping @Sendable (Result<SignInOutcome, any Error>) -> Void,
                        prove: @escaping @Sendable () throws -> ProvenIdentity) throws {
        let run: @Sendable () -> Void = { [self] in
            let identity: ProvenIdentity
            do { identity = try prove() } catch { return completion(.failure(error)) }
            withIdentity(identity, details: details, then: completion)
        }
        guard callingOut else { return run() }
        guard outbound.submit(run) else { throw SignInRefusal.providersBusy }
    }
}
