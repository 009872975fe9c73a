import BelayCore
import BelayDomain
import BelayHTTP
import BelayIdentity
import BelayRepresentations
import BelayUseCases
import Foundation

extension APIRoutes {
    /// Signing in (Apple, Google, an emailed code; then a second factor where the account has
    /// one), refreshing and ending sessions. Every
    /// `/v1/auth/*` route is limited per client address; mailed codes also per email address.
    func registerAuthRoutes(public router: OperationRoutes<APIContext>, authenticated: OperationRoutes<AuthenticatedContext>) {
        let limits = signIn.limits
        // Refusals become problems inside the limit, so that they carry its RateLimit fields too.
        let auth = router.add(middleware: limits.addressMiddleware()).add(middleware: DomainErrorMiddleware())

        auth.on(Operations.signInWithApple) { request, _ in
            let body = try request.decodeJSON(as: AppleSignInRequest.self)
            let deferred = DeferredResponse()
            let details = try Self.details(body)
            try Self.admitted {
                try signingIn.withApple(identityToken: body.identityToken, nonce: body.nonce, name: body.name,
                                        authorizationCode: body.authorizationCode, details: details, then: answer(deferred, clock: domain.clock))
            }
            return .deferred(deferred)
        }

        auth.on(Operations.signInWithGoogle) { request, _ in
            let body = try request.decodeJSON(as: GoogleSignInRequest.self)
            let deferred = DeferredResponse()
            let details = try Self.details(body)
            try Self.admitted {
                try signingIn.withGoogle(idToken: body.idToken, nonce: body.nonce, details: details, then: answer(deferred, clock: domain.clock))
            }
            return .deferred(deferred)
        }

        auth.on(Operations.sendEmailCode) { request, _ in
            let body = try request.decodeJSON(as: EmailSignInRequest.self)
            guard let mail = signIn.mail else { throw Self.disabled("Sign-in by email", setting: "mail.smtp_url") }
            let minutes = try mailSignInCode(to: body.email, locale: try Self.locale(body.locale), through: mail)
            var json = JSONOutput()
            json.object { json in
                json.member("status", "sent")
                json.member("expires_in", minutes * 60)
            }
            // The same answer whether or not the address has an account.
            return Response(status: .accepted, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                            body: ResponseBody(bytes: json.bytes))
        }

        auth.on(Operations.verifyEmailCode) { request, _ in
            let body = try request.decodeJSON(as: EmailVerifyRequest.self)
            let identity: ProvenIdentity
            switch (body.email, body.code, body.linkToken) {
            case let (email?, code?, nil):
                identity = try domain.accounts.verifyEmailCode(email: email, code: code)
            case let (nil, nil, token?):
                identity = try domain.accounts.verifyEmailLink(token: token)
            default:
                throw HTTPError(.unprocessableContent, code: "invalid_body",
                                detail: "Send either `email` and `code` (the six digits from the mail) or `link_token` (from the mail's link), not both.")
            }
            let deferred = DeferredResponse()
            signingIn.withIdentity(identity, details: try Self.details(body), then: answer(deferred, clock: domain.clock))
            return .deferred(deferred)
        }

        // The second step of a held sign-in: the challenge its first step answered, and the
        // authenticator's current code or an unused recovery code.
        auth.on(Operations.completeSecondFactor) { request, _ in
            let body = try request.decodeJSON(as: SecondFactorSignInRequest.self)
            guard (1...128).contains(body.challenge.unicodeScalars.count) else {
                throw HTTPError(.unprocessableContent, code: RefusalReason.invalidInput.rawValue,
                                detail: "`challenge` is the text a sign-in answered with `second_factor_required`; sign in again for a new one.",
                                extensions: ["field": "challenge"])
            }
            let deferred = DeferredResponse()
            let clock = domain.clock
            try signingIn.completeSecondFactor(challenge: body.challenge, code: body.code) { outcome in
                deferred.complete {
                    let grant = try outcome.get()
                    return .api(SessionGrantBody(grant: grant, now: clock.now()), status: grant.accountCreated ? .created : .ok,
                                headers: ["Cache-Control": "no-store"])
                }
            }
            return .deferred(deferred)
        }

        auth.on(Operations.refreshSession) { request, _ in
            let body = try request.decodeJSON(as: RefreshRequest.self)
            let deferred = DeferredResponse()
            let clock = domain.clock
            domain.accounts.refresh(token: body.refreshToken) { [tokenCache] outcome in
                // A reused refresh token ended its session: its access tokens stop now, as on sign-out.
                if case let .failure(error as DomainError) = outcome, error.reason == .refreshTokenReused { tokenCache.removeAll() }
                deferred.complete { .api(SessionGrantBody(grant: try outcome.get(), now: clock.now()), headers: ["Cache-Control": "no-store"]) }
            }
            return .deferred(deferred)
        }

        authenticated.on(Operations.signOut) { _, context in
            let caller = context.caller
            guard let sessionID = caller.sessionID else { throw Self.notASession() }
            try domain.accounts.endSession(id: sessionID, userID: caller.userID)
            tokenCache.removeAll()
            return Response(status: .noContent, headers: [:], body: .empty)
        }

        // The universal link in the mail: the app opens it where it is installed; a browser
        // gets a page that says so.
        router.on(Operations.emailLinkPage) { _, _ in
            appLinkPage(title: "Open the app to sign in",
                        detail: "This sign-in link works in the club's app. Open it on the phone where the app is installed, or type the six-digit code from the mail into the app.")
        }
    }

    /// Starts an email sign-in and queues its mail (the code and the link), with the limit per
    /// address: what `POST /v1/auth/email` and the console's sign-in both do.
    /// - Returns: the minutes the code lives.
    /// - Throws: `HTTPError` 429 past the limit, 503 `busy` when too much mail waits;
    ///   `DomainError` `invalid_input` (field `email`).
    func mailSignInCode(to rawEmail: String, locale: MemberLocale?, through mail: SignInMailQueue) throws -> Int {
        let email = rawEmail.trimmingCharacters(in: .whitespaces).lowercased()
        try signIn.limits.checkEmail(email)
        let challenge = try domain.accounts.startEmailSignIn(email: rawEmail, locale: locale)
        let link = signIn.publicBaseURL + "/auth/email/" + challenge.linkToken
        let minutes = Int(domain.accounts.policy.emailCodeLifetime / 60)
        let message = SignInMail.message(to: challenge.email, challenge: challenge, link: link, clubName: signIn.clubName, minutes: minutes)
        guard mail.enqueue(message) else {
            throw HTTPError(.serviceUnavailable, code: "busy", detail: "Too much mail is waiting to go out; try again in a minute.",
                            headers: ["Retry-After": "60"])
        }
        return minutes
    }

    /// The page a browser shows for a universal link meant for the app (a sign-in or invite
    /// link opened where the app is not installed): what to do instead. Never cached or
    /// referred on, since its URL carries a credential.
    func appLinkPage(title: String, detail: String) -> Response {
        let html = SharePageDocument.message(title: title, detail: detail, settings: services.sharePageSettings)
        return Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                                               "Referrer-Policy": "no-referrer"],
                        body: ResponseBody(string: html))
    }

    /// Completes `deferred` with a sign-in's outcome: 201 or 200 with the session's tokens, 202
    /// with the challenge of a held sign-in, or the problem of its refusal (an ID token's
    /// refusal mapped by `problem(for:)`). The answer waits for the session's commit, as a
    /// check-in's does, so a burst of sign-ins holds no HTTP thread.
    func answer(_ deferred: DeferredResponse, clock: any TimeSource) -> @Sendable (Result<SignInOutcome, any Error>) -> Void {
        { outcome in
            deferred.complete {
                switch outcome {
                case let .success(.signedIn(grant)):
                    return .api(SessionGrantBody(grant: grant, now: clock.now()), status: grant.accountCreated ? .created : .ok,
                                headers: ["Cache-Control": "no-store"])
                case let .success(.secondFactorRequired(held)):
                    return .api(SecondFactorChallengeBody(challenge: held, now: clock.now()), status: .accepted, headers: ["Cache-Control": "no-store"])
                case let .failure(error as IdentityTokenError):
                    throw Self.problem(for: error)
                case let .failure(error):
                    throw error
                }
            }
        }
    }

    /// The device, invite code and language a sign-in body gives.
    /// - Throws: 422 `invalid_input` (field `locale`) for a language Belay does not speak.
    static func details(_ body: some SignInRequestDetails) throws -> SignInDetails {
        SignInDetails(device: DeviceDescription(name: body.deviceName ?? "", platform: body.platform ?? ""),
                      inviteCode: body.inviteCode, locale: try locale(body.locale))
    }

    static func locale(_ text: String?) throws -> MemberLocale? {
        guard let text else { return nil }
        guard let locale = MemberLocale(rawValue: text) else {
            throw HTTPError(.unprocessableContent, code: RefusalReason.invalidInput.rawValue,
                            detail: "`locale` is ko, ja or en; got `\(text.prefix(20))`.", extensions: ["field": "locale"])
        }
        return locale
    }

    /// 503 with `Retry-After` when the provider's keys cannot be fetched, 422 for something
    /// that is not a JWT at all, 401 for every other refusal.
    static func problem(for error: IdentityTokenError) -> HTTPError {
        switch error.code {
        case .keysUnavailable:
            return HTTPError(.serviceUnavailable, code: error.code.rawValue, detail: error.detail,
                             headers: ["Retry-After": String(error.retryAfterSeconds ?? 30)])
        case .malformedToken:
            return HTTPError(.unprocessableContent, code: error.code.rawValue, detail: error.detail)
        default:
            return HTTPError.unauthorized(detail: error.detail, challenge: AuthenticationProblems.realm + ", error=\"invalid_token\"",
                                          code: error.code.rawValue)
        }
    }

    /// Runs `start`, answering a sign-in refused before its proof was looked at: 403
    /// `sign_in_method_disabled`, or 503 `busy` when too many wait for the providers.
    static func admitted(_ start: () throws -> Void) throws {
        do {
            try start()
        } catch let refusal as SignInRefusal {
            switch refusal {
            case let .methodDisabled(method, setting):
                throw disabled(method, setting: setting)
            case .providersBusy:
                throw HTTPError(.serviceUnavailable, code: "busy",
                                detail: "Too many sign-ins are waiting for the identity provider; try again in a few seconds.",
                                headers: ["Retry-After": "5"])
            }
        }
    }

    static func disabled(_ method: String, setting: String) -> HTTPError {
        HTTPError(.forbidden, code: "sign_in_method_disabled",
                  detail: "\(method) is not set up on this server; use another way to sign in, or ask the club to set `\(setting)`.")
    }

    static func notASession() -> HTTPError {
        HTTPError(.forbidden, code: RefusalReason.notASession.rawValue,
                  detail: "This token was made by an admin, not by signing in, so it has no session; an admin revokes it with `belay users revoke-token`.",
                  extensions: ["reason": .string(RefusalReason.notASession.rawValue)])
    }
}
