import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

/// A member signed in to the console, for one request.
struct ConsoleVisitor: Sendable {
    let user: AuthenticatedUser
    let session: ConsoleCookies.Session
    let language: SharePageLanguage
    let isModerator: Bool
    /// A new `Set-Cookie` when this request refreshed the session's tokens.
    var refreshedCookie: String?
    /// What every form of the page carries (an HMAC of the session's secret, made once per request).
    let formToken: String

    init(user: AuthenticatedUser, session: ConsoleCookies.Session, language: SharePageLanguage, isModerator: Bool, refreshedCookie: String?) {
        self.user = user
        self.session = session
        self.language = language
        self.isModerator = isModerator
        self.refreshedCookie = refreshedCookie
        formToken = ConsoleCookies.formToken(secret: session.formSecret)
    }

    var actor: Actor { user.actor }
    var isAdmin: Bool { user.role == .admin }
    var viewer: ConsoleDocument.Viewer {
        ConsoleDocument.Viewer(handle: user.handle, displayName: user.displayName, formToken: formToken, isModerator: isModerator,
                               isAdmin: isAdmin, isHost: user.role != .member)
    }
}

extension APIRoutes {
    /// The console at `/console`: signing in by email code into a cookie session, and the
    /// pages of hosts and moderators (registered by the files beside this one). Every action
    /// calls the same domain services as the API with the signed-in member as the actor.
    func registerConsoleRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleScript) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400",
                                            "X-Content-Type-Options": "nosniff"],
                     body: ResponseBody(string: ConsoleAssets.script))
        }
        router.on(Operations.consoleStylesheet) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=86400",
                                            "X-Content-Type-Options": "nosniff"],
                     body: ResponseBody(string: ConsoleAssets.stylesheet))
        }

        router.on(Operations.consoleSignInPage) { request, _ in
            if try consoleVisitor(request) != nil { return Self.seeOther("/console") }
            return signInPage(request, step: .email, email: "", error: nil, status: .ok)
        }
        router.on(Operations.consoleSendCode) { request, _ in
            let form = ConsoleForm(body: request.body)
            let email = form.trimmed("email")
            guard preSignInFormIsGenuine(request, form) else {
                return signInPage(request, step: .email, email: email, error: clubLanguage.word(.formExpired), status: .forbidden)
            }
            guard let mail = signIn.mail else {
                return signInPage(request, step: .email, email: email, error: Self.disabled("Sign-in by email", setting: "mail.smtp_url").detail,
                                  status: .forbidden)
            }
            do {
                try signIn.limits.checkAddress(request.remoteAddress)
                _ = try mailSignInCode(to: email, locale: nil, through: mail)
            } catch {
                let (status, message) = try Self.consoleMessage(for: error, in: clubLanguage)
                return signInPage(request, step: .email, email: email, error: message, status: status)
            }
            return signInPage(request, step: .code, email: email, error: nil, status: .ok)
        }
        router.on(Operations.consoleVerifyCode) { request, _ in
            let form = ConsoleForm(body: request.body)
            let email = form.trimmed("email")
            let code = form.trimmed("code")
            guard preSignInFormIsGenuine(request, form) else {
                return signInPage(request, step: .code, email: email, code: code, error: clubLanguage.word(.formExpired), status: .forbidden)
            }
            let grant: SessionGrant
            do {
                try signIn.limits.checkAddress(request.remoteAddress)
                let identity = try domain.accounts.verifyEmailCode(email: email, code: code)
                // An account with a second factor is held here: no session exists until its code is given.
                if let held = try domain.secondFactors.holdSignIn(identity, device: Self.consoleDevice) {
                    var response = signInPage(request, step: .secondFactor, email: email, error: nil, status: .ok)
                    response.headers.add(name: "Set-Cookie", value: ConsoleCookies.setCookie(
                        name: ConsoleCookies.heldSignInName, value: held.token, maxAge: Int(domain.accounts.policy.emailCodeLifetime), secure: secureCookies))
                    return response
                }
                grant = try domain.accounts.signIn(identity, device: Self.consoleDevice)
            } catch {
                let (status, message) = try Self.consoleMessage(for: error, in: clubLanguage)
                return signInPage(request, step: .code, email: email, code: code, error: message, status: status)
            }
            return signedIn(grant, notice: nil)
        }
        router.on(Operations.consoleSecondFactorPage) { request, _ in
            guard let held = ConsoleCookies.values(in: request)[ConsoleCookies.heldSignInName], try domain.secondFactors.isHeld(token: held) else {
                return Self.seeOther("/console/sign-in")
            }
            return signInPage(request, step: .secondFactor, email: "", error: nil, status: .ok)
        }
        router.on(Operations.consoleVerifySecondFactor) { request, _ in
            let form = ConsoleForm(body: request.body)
            let code = form.trimmed("code")
            guard preSignInFormIsGenuine(request, form) else {
                return signInPage(request, step: .secondFactor, email: "", code: code, error: clubLanguage.word(.formExpired), status: .forbidden)
            }
            guard let held = ConsoleCookies.values(in: request)[ConsoleCookies.heldSignInName] else { return Self.seeOther("/console/sign-in") }
            let grant: SessionGrant
            let pass: SecondFactorPass
            do {
                try signIn.limits.checkAddress(request.remoteAddress)
                pass = try domain.secondFactors.completeSignIn(token: held, code: code)
                grant = try domain.accounts.signIn(pass.identity, device: pass.device)
            } catch let error as DomainError where error.reason == .invalidSecondFactorCode && error.field == "sign_in" {
                // Expired, or too many wrong codes: back to the start, the held sign-in forgotten.
                var response = signInPage(request, step: .email, email: "", error: error.message, status: .unauthorized)
                response.headers.add(name: "Set-Cookie", value: ConsoleCookies.setCookie(name: ConsoleCookies.heldSignInName, value: "", maxAge: 0,
                                                                                       secure: secureCookies))
                return response
            } catch {
                let (status, message) = try Self.consoleMessage(for: error, in: clubLanguage)
                return signInPage(request, step: .secondFactor, email: "", code: code, error: message, status: status)
            }
            return signedIn(grant, notice: pass.usedRecoveryCode ? pass.recoveryCodesLeft : nil)
        }
        router.on(Operations.consoleSignOut) { request, _ in
            let form = ConsoleForm(body: request.body)
            guard let visitor = try consoleVisitor(request) else { return Self.seeOther("/console/sign-in") }
            guard ConsoleCookies.isFormToken(form["csrf"], of: visitor.session.formSecret) else { return formExpiredPage(visitor) }
            // The session ends in the store: the cookie, wherever a copy of it is, stops working.
            if let sessionID = visitor.user.sessionID {
                try? domain.accounts.endSession(id: sessionID, userID: visitor.user.userID)
            }
            tokenCache.removeAll()
            var response = Self.seeOther("/console/sign-in")
            response.headers.add(name: "Set-Cookie", value: ConsoleCookies.setCookie(name: ConsoleCookies.sessionName, value: "", maxAge: 0,
                                                                                   secure: secureCookies))
            return response
        }

        registerConsoleMeetupRoutes(on: router)
        registerConsoleModerationRoutes(on: router)
        registerConsoleGymRoutes(on: router)
        registerConsoleShareRoutes(on: router)
        registerConsoleServerRoutes(on: router)
        registerConsoleSecondFactorRoutes(on: router)
        registerConsoleInviteRoutes(on: router)
        registerConsoleWebhookRoutes(on: router)
        registerConsoleDeviceRoutes(on: router)
        registerConsoleCohostRoutes(on: router)
        registerConsoleSeriesRoutes(on: router)
        registerConsoleRewardRoutes(on: router)
    }

    // MARK: Sessions

    /// The answer to a finished sign-in: a new cookie with a new form secret (nothing from
    /// before signing in carries over), the pre-sign-in and held cookies removed. After a
    /// recovery code, the second-factor page says how many are left.
    private func signedIn(_ grant: SessionGrant, notice recoveryCodesLeft: Int?) -> Response {
        let session = ConsoleCookies.Session(accessToken: grant.accessToken, refreshToken: grant.refreshToken)
        var response = Self.seeOther(recoveryCodesLeft.map { "/console/second-factor?recovery_codes_left=\($0)" } ?? "/console")
        response.headers.add(name: "Set-Cookie", value: sessionCookie(session))
        for name in [ConsoleCookies.preSignInName, ConsoleCookies.heldSignInName] {
            response.headers.add(name: "Set-Cookie", value: ConsoleCookies.setCookie(name: name, value: "", maxAge: 0, secure: secureCookies))
        }
        return response
    }

    /// How a console session is named in the member's list of sessions.
    static let consoleDevice = DeviceDescription(name: "Belay console", platform: "web")

    var clubLanguage: SharePageLanguage { services.sharePageSettings.language }
    /// `Secure` cookies when the club is reached over https.
    var secureCookies: Bool { presentation.publicBaseURL.lowercased().hasPrefix("https://") }

    func sessionCookie(_ session: ConsoleCookies.Session) -> String {
        ConsoleCookies.setCookie(name: ConsoleCookies.sessionName, value: session.value,
                                 maxAge: Int(domain.accounts.policy.refreshTokenIdleLifetime), secure: secureCookies)
    }

    /// The member behind the request's session cookie, refreshing its tokens when the access
    /// token has expired; nil when there is no cookie or its session has ended (signed out,
    /// ended from another device, suspended, deleted).
    func consoleVisitor(_ request: Request) throws -> ConsoleVisitor? {
        guard let value = ConsoleCookies.values(in: request)[ConsoleCookies.sessionName],
              var session = ConsoleCookies.Session(value: value) else { return nil }
        var refreshed: String?
        var user = try authenticatedConsoleUser(token: session.accessToken)
        if user == nil {
            guard let grant = try? domain.accounts.refresh(token: session.refreshToken) else { return nil }
            session = ConsoleCookies.Session(accessToken: grant.accessToken, refreshToken: grant.refreshToken, formSecret: session.formSecret)
            refreshed = sessionCookie(session)
            user = try authenticatedConsoleUser(token: session.accessToken)
        }
        // Only a session's tokens make a console session, never an admin's API token.
        guard let user, user.sessionID != nil else { return nil }
        // Read once a moment per member, as the API's busiest reads are (the response cache's rule).
        let facts = responseCache.value(for: .consoleMember(user.userID), cost: { _ in 64 }) {
            ConsoleMemberFacts(locale: (try? domain.accounts.profile(userID: user.userID).locale) ?? nil,
                               isModerator: user.role == .admin ? true : ((try? domain.moderation.isModerator(user.actor)) ?? false))
        }
        let language = SharePageLanguage.console(member: facts.locale, club: clubLanguage)
        return ConsoleVisitor(user: user, session: session, language: language, isModerator: facts.isModerator, refreshedCookie: refreshed)
    }

    /// What a console page needs to know of its member besides the session: their language and
    /// whether they moderate.
    struct ConsoleMemberFacts: Sendable {
        let locale: MemberLocale?
        let isModerator: Bool
    }

    private func authenticatedConsoleUser(token: String) throws -> AuthenticatedUser? {
        if let user = tokenCache.user(for: token) { return user }
        guard let user = try domain.users.authenticate(token: token) else { return nil }
        tokenCache.store(user, for: token)
        return user
    }

    /// Runs `body` for a signed-in member: sends anyone else to the sign-in page (a GET) or
    /// refuses (a POST whose form token is not the session's), and turns refusals into pages.
    ///
    /// With `console.admin_second_factor` `required`, an admin without a second factor is sent
    /// to enrol instead (pages that are part of enrolling pass `secondFactorPage`).
    func consolePage(_ request: Request, secondFactorPage: Bool = false,
                     _ body: (ConsoleVisitor, ConsoleForm) throws -> Response) throws -> Response {
        guard let visitor = try consoleVisitor(request) else {
            return Self.seeOther("/console/sign-in")
        }
        if !secondFactorPage, visitor.isAdmin, domain.secondFactors.rule == .required,
           try !domain.secondFactors.state(userID: visitor.user.userID).enrolled {
            var response = Self.seeOther("/console/second-factor")
            if let cookie = visitor.refreshedCookie { response.headers.add(name: "Set-Cookie", value: cookie) }
            return response
        }
        let form = request.method == .post ? ConsoleForm(body: request.body) : ConsoleForm()
        if request.method == .post {
            guard ConsoleCookies.isFormToken(form["csrf"], of: visitor.session.formSecret),
                  request.headers["Sec-Fetch-Site"].map({ $0 == "same-origin" || $0 == "none" }) ?? true else {
                return formExpiredPage(visitor)
            }
        }
        var response: Response
        do {
            response = try body(visitor, form)
        } catch let error as DomainError where [.meetupNotFound, .notPermitted, .userNotFound, .gymNotFound, .webhookNotFound, .inviteNotFound,
                                                   .deviceNotFound].contains(error.reason) {
            // Anything not theirs answers like a page that does not exist.
            response = notFoundPage(visitor)
        } catch is ConsolePageNotFound {
            response = notFoundPage(visitor)
        }
        if let cookie = visitor.refreshedCookie { response.headers.add(name: "Set-Cookie", value: cookie) }
        return response
    }

    /// Whether a sign-in form carries the token of the browser's pre-sign-in cookie.
    private func preSignInFormIsGenuine(_ request: Request, _ form: ConsoleForm) -> Bool {
        guard let secret = ConsoleCookies.values(in: request)[ConsoleCookies.preSignInName] else { return false }
        return ConsoleCookies.isFormToken(form["csrf"], of: secret)
    }

    // MARK: Pages

    enum SignInStep { case email, code, secondFactor }

    private func signInPage(_ request: Request, step: SignInStep, email: String, code: String = "", error: String?, status: HTTPStatus) -> Response {
        let language = clubLanguage
        let word = language.word
        var headers = ConsoleDocument.pageHeaders
        var secret = ConsoleCookies.values(in: request)[ConsoleCookies.preSignInName] ?? ""
        if secret.utf8.count != 43 {
            secret = ConsoleCookies.newSecret()
            headers.add(name: "Set-Cookie", value: ConsoleCookies.setCookie(name: ConsoleCookies.preSignInName, value: secret, maxAge: 3_600,
                                                                          secure: secureCookies))
        }
        let token = ConsoleCookies.formToken(secret: secret)
        var main = "<section class=\"narrow\"><h1>\(HTMLText.escaped(word(step == .secondFactor ? .secondFactor : .signIn)))</h1>"
        switch step {
        case .email:
            main += """
            <form method="post" action="/console/sign-in" novalidate>
            \(ConsoleDocument.csrfField(token))
            \(ConsoleDocument.errorBox(error))
            \(ConsoleDocument.field(name: "email", label: word(.email), value: email, type: "email", hint: word(.emailHelp), error: error,
                                    extra: " autocomplete=\"email\" autofocus"))
            <button type="submit">\(HTMLText.escaped(word(.sendCode)))</button>
            </form>
            """
        case .code:
            main += """
            <p>\(HTMLText.escaped(word(.codeSent)))</p>
            <form method="post" action="/console/sign-in/code" novalidate>
            \(ConsoleDocument.csrfField(token))
            \(ConsoleDocument.errorBox(error))
            <p class="email-shown">\(HTMLText.escaped(email))</p>
            <input type="hidden" name="email" value="\(HTMLText.escaped(email))">
            \(ConsoleDocument.field(name: "code", label: word(.code), value: code, hint: word(.codeHelp), error: error,
                                    extra: " inputmode=\"numeric\" autocomplete=\"one-time-code\" autofocus"))
            <button type="submit">\(HTMLText.escaped(word(.checkCode)))</button>
            </form>
            <p><a href="/console/sign-in">\(HTMLText.escaped(word(.otherEmail)))</a></p>
            """
        case .secondFactor:
            main += """
            <p>\(HTMLText.escaped(word(.secondFactorAsked)))</p>
            <form method="post" action="/console/sign-in/second-factor" novalidate>
            \(ConsoleDocument.csrfField(token))
            \(ConsoleDocument.errorBox(error))
            \(ConsoleDocument.field(name: "code", label: word(.secondFactorCode), value: code, hint: word(.secondFactorCodeHint), error: error,
                                    extra: " autocomplete=\"one-time-code\" autocapitalize=\"off\" spellcheck=\"false\" autofocus"))
            <button type="submit">\(HTMLText.escaped(word(.verify)))</button>
            </form>
            <p><a href="/console/sign-in">\(HTMLText.escaped(word(.startOver)))</a></p>
            """
        }
        main += "</section>"
        let html = ConsoleDocument.page(title: word(.signIn), language: language, clubName: presentation.clubName, viewer: nil, main: main)
        return Response(status: status, headers: headers, body: ResponseBody(string: html))
    }

    func formExpiredPage(_ visitor: ConsoleVisitor) -> Response {
        messagePage(visitor, status: .forbidden, title: visitor.language.word(.errorTitle), detail: visitor.language.word(.formExpired))
    }

    func notFoundPage(_ visitor: ConsoleVisitor?) -> Response {
        let language = visitor?.language ?? clubLanguage
        return messagePage(visitor, status: .notFound, title: language.word(.notFoundTitle), detail: language.word(.notFoundDetail))
    }

    func messagePage(_ visitor: ConsoleVisitor?, status: HTTPStatus, title: String, detail: String) -> Response {
        let language = visitor?.language ?? clubLanguage
        let main = "<section class=\"narrow\"><h1>\(HTMLText.escaped(title))</h1><p>\(HTMLText.escaped(detail))</p>"
            + "<p><a href=\"/console\">\(HTMLText.escaped(language.word(.console)))</a></p></section>"
        return Self.htmlPage(ConsoleDocument.page(title: title, language: language, clubName: presentation.clubName, viewer: visitor?.viewer,
                                                  main: main), status: status)
    }

    /// A page that only shows things (a GET), kept for its session under the response cache's
    /// rule: made again once a moment, and at once after any change through this server. The
    /// door list and the dashboard, which a host at the front desk keeps open, are read so.
    func cachedPage(_ visitor: ConsoleVisitor, _ request: Request, _ make: () throws -> Response) throws -> Response {
        let target = request.path + "?" + request.queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        let key = ResponseCache.Key.consolePage(session: visitor.formToken, target: target)
        if let bytes = responseCache.body(for: key) { return Response(status: .ok, headers: ConsoleDocument.pageHeaders, body: ResponseBody(bytes: bytes)) }
        let generation = responseCache.currentGeneration
        let response = try make()
        if response.status == .ok { responseCache.store(response.body.bytes, for: key, readGeneration: generation) }
        return response
    }

    static func htmlPage(_ html: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ConsoleDocument.pageHeaders, body: ResponseBody(string: html))
    }

    /// 303 to `location` (after a form, so reloading does not send it again).
    static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: ["Location": location, "Cache-Control": "no-store"])
    }

    /// The status and words a form shows for a refusal: the domain's message (what was wrong
    /// and what to do), a limit's detail; anything unexpected is rethrown (a 500 revealing nothing).
    static func consoleMessage(for error: any Error, in language: SharePageLanguage = .english) throws -> (HTTPStatus, String) {
        switch error {
        case let error as DomainError:
            guard let problem = DomainProblems.httpError(for: error) else { throw error }
            return (problem.status, language.refusal(error.reason) ?? error.message)
        case let error as HTTPError:
            return (error.status, error.detail)
        default:
            throw error
        }
    }
}
