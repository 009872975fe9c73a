import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// Enrolling a second factor: a new secret shown as a QR code (`otpauth://`) and as text,
    /// confirmed with a current code from the app, then the recovery codes shown once; later,
    /// ten new recovery codes for the authenticator's current code. These
    /// pages stay open to an admin whom `console.admin_second_factor` `required` sends here.
    func registerConsoleSecondFactorRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleSecondFactor) { request, _ in
            try consolePage(request, secondFactorPage: true) { visitor, _ in
                let left = request.query("recovery_codes_left").flatMap { Int($0) }
                return try secondFactorPage(visitor, recoveryNotice: left, error: nil, code: "")
            }
        }
        router.on(Operations.consoleStartSecondFactor) { request, _ in
            try consolePage(request, secondFactorPage: true) { visitor, _ in
                do {
                    try domain.secondFactors.startEnrolment(userID: visitor.user.userID)
                } catch let error as DomainError where error.reason == .invalidInput {
                    return try secondFactorPage(visitor, error: error.message, code: "", status: .unprocessableContent)
                }
                return Self.seeOther("/console/second-factor")
            }
        }
        router.on(Operations.consoleConfirmSecondFactor) { request, _ in
            try consolePage(request, secondFactorPage: true) { visitor, form in
                let code = form.trimmed("code")
                let codes: [String]
                do {
                    codes = try domain.secondFactors.confirmEnrolment(userID: visitor.user.userID, code: code)
                } catch let error as DomainError where error.reason == .invalidSecondFactorCode || error.reason == .invalidInput {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try secondFactorPage(visitor, error: message, code: code, status: status)
                }
                return recoveryCodesPage(visitor, codes)
            }
        }
        // New recovery codes, for a member who used or lost theirs: the authenticator's current
        // code proves the phone is at hand; the old codes stop working.
        router.on(Operations.consoleNewRecoveryCodes) { request, _ in
            try consolePage(request, secondFactorPage: true) { visitor, form in
                let code = form.trimmed("code")
                let codes: [String]
                do {
                    codes = try domain.secondFactors.regenerateRecoveryCodes(userID: visitor.user.userID, code: code)
                } catch let error as DomainError where error.reason == .invalidSecondFactorCode || error.reason == .invalidInput {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try secondFactorPage(visitor, error: message, code: code, status: status)
                }
                return recoveryCodesPage(visitor, codes, regenerated: true)
            }
        }
    }

    private func secondFactorPage(_ visitor: ConsoleVisitor, recoveryNotice: Int? = nil, error: String?, code: String,
                                  status: HTTPStatus = .ok) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let state = try domain.secondFactors.state(userID: visitor.user.userID)
        var main = "<section class=\"narrow\"><h1>\(e(word(.secondFactor)))</h1>"
        if let recoveryNotice {
            main += "<p class=\"notice\" role=\"status\">\(e(word(.recoveryCodeSpent))) \(recoveryNotice)</p>"
        }
        if state.enrolled {
            let since = state.enrolledAt.map { KioskDocument.format($0, template: "yMMMd", zone: presentation.clubZone.zone, locale: language.localeIdentifier) } ?? ""
            main += "<p>\(e(word(.enrolledSince))) \(e(since))</p>"
            main += "<p>\(e(word(.recoveryCodesLeft))): <strong>\(state.recoveryCodesLeft)</strong></p>"
            main += "<p class=\"hint\">\(e(word(.resetHelp)))</p>"
            main += """
            <h2>\(e(word(.newRecoveryCodes)))</h2>
            <p>\(e(word(.newRecoveryCodesHelp)))</p>
            <form method="post" action="/console/second-factor/recovery-codes" novalidate>
            \(ConsoleDocument.csrfField(visitor.formToken))
            \(ConsoleDocument.errorBox(error))
            \(ConsoleDocument.field(name: "code", label: word(.appCode), value: code, hint: word(.appCodeHint), error: error,
                                    extra: " inputmode=\"numeric\" autocomplete=\"one-time-code\""))
            <button type="submit">\(e(word(.newRecoveryCodes)))</button>
            </form>
            """
            if recoveryNotice != nil { main += "<p><a class=\"button\" href=\"/console\">\(e(word(.toConsole)))</a></p>" }
        } else if let totp = try domain.secondFactors.pendingEnrolment(userID: visitor.user.userID) {
            let uri = totp.uri(issuer: presentation.clubName, account: visitor.user.handle)
            main += "<p>\(e(word(.scanQR)))</p>"
            if let qr = QRCode(uri) { main += "<div class=\"qr\">\(qr.svg(label: word(.secondFactor)))</div>" }
            let key = Base32.encoded(totp.secret)
            let grouped = stride(from: 0, to: key.count, by: 4).map { offset -> String in
                let start = key.index(key.startIndex, offsetBy: offset)
                return String(key[start..<(key.index(start, offsetBy: 4, limitedBy: key.endIndex) ?? key.endIndex)])
            }.joined(separator: " ")
            main += "<p>\(e(word(.setupKey))): <code class=\"secret\" id=\"setup-key\">\(e(grouped))</code></p>"
            main += """
            <form method="post" action="/console/second-factor/confirm" novalidate>
            \(ConsoleDocument.csrfField(visitor.formToken))
            \(ConsoleDocument.errorBox(error))
            \(ConsoleDocument.field(name: "code", label: word(.appCode), value: code, hint: word(.appCodeHint), error: error,
                                    extra: " inputmode=\"numeric\" autocomplete=\"one-time-code\""))
            <button type="submit">\(e(word(.confirmEnrolment)))</button>
            </form>
            """
        } else {
            if visitor.isAdmin && domain.secondFactors.rule == .required { main += "<p class=\"error\" role=\"alert\">\(e(word(.mustEnrol)))</p>" }
            main += ConsoleDocument.errorBox(error)
            main += "<p>\(e(word(.notEnrolled)))</p>"
            main += """
            <form method="post" action="/console/second-factor/start">
            \(ConsoleDocument.csrfField(visitor.formToken))
            <button type="submit">\(e(word(.setUp)))</button>
            </form>
            """
        }
        main += "</section>"
        return Self.htmlPage(ConsoleDocument.page(title: word(.secondFactor), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .secondFactor, main: main), status: status)
    }

    /// The recovery codes, in the one answer that ever shows them (after enrolling, or made anew).
    private func recoveryCodesPage(_ visitor: ConsoleVisitor, _ codes: [String], regenerated: Bool = false) -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        var main = "<section class=\"narrow\"><h1>\(e(word(.recoveryCodes)))</h1>"
        if regenerated {
            main += "<p class=\"notice\" role=\"status\">\(e(word(.newRecoveryCodesMade)))</p>"
        } else {
            main += "<p class=\"notice\" role=\"status\">\(e(word(.enrolledSince))) \(e(KioskDocument.format(domain.clock.now(), template: "yMMMd", zone: presentation.clubZone.zone, locale: language.localeIdentifier)))</p>"
        }
        main += "<p>\(e(word(.recoveryCodesHelp)))</p>"
        main += "<ol class=\"recovery-codes\" id=\"recovery-codes\">" + codes.map { "<li><code>\(e($0))</code></li>" }.joined() + "</ol>"
        main += "<p><a class=\"button\" href=\"/console\">\(e(word(.toConsole)))</a></p></section>"
        return Self.htmlPage(ConsoleDocument.page(title: word(.recoveryCodes), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .secondFactor, main: main))
    }
}
