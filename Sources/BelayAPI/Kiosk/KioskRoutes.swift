import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// The front-desk kiosk: its links (made and revoked by those who manage the meetup), the
    /// public page a link opens with the state its script polls, the script and stylesheet,
    /// and the page of the check-in link inside the QR code (`/c/{id}?code=…`) for a phone
    /// without the app.
    func registerKioskRoutes(public publicPages: OperationRoutes<APIContext>, authenticated: OperationRoutes<AuthenticatedContext>) {
        authenticated.on(Operations.createKioskLink) { _, context in
            let caller = context.caller  // the domain decides: the meetup's host, co-hosts, admins
            let link = try domain.kiosks.createLink(meetupID: try context.id(), by: caller.actor)
            return .api(KioskLinkBody(link: link, presentation: presentation), status: .created, headers: ["Cache-Control": "no-store"])
        }
        authenticated.on(Operations.revokeKioskLinks) { _, context in
            let caller = context.caller
            let id = try context.id()
            return .api(KioskRevocationBody(meetupID: id, revoked: try domain.kiosks.revokeLinks(meetupID: id, by: caller.actor)))
        }

        publicPages.on(Operations.kioskPage) { _, context in
            try kioskPage(token: try context.parameters.require("token"))
        }
        publicPages.on(Operations.kioskState) { _, context in
            try kioskState(token: try context.parameters.require("token"))
        }
        // Named by the page with `?v=` and a digest of their content, so they may be kept a day.
        publicPages.on(Operations.kioskScript) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400",
                                            "X-Content-Type-Options": "nosniff"],
                     body: ResponseBody(string: KioskDocument.script))
        }
        publicPages.on(Operations.kioskStylesheet) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=86400",
                                            "X-Content-Type-Options": "nosniff"],
                     body: ResponseBody(string: KioskDocument.stylesheet))
        }
        // The link inside the kiosk's QR code. Where the app is installed the system opens it
        // instead (apple-app-site-association and assetlinks.json cover /c/*) and checks the
        // member in with the code; a browser gets this page. It reads nothing about the
        // meetup, so trying ids tells nobody anything.
        publicPages.on(Operations.checkInLinkPage) { request, context in
            _ = try context.id()
            let digits = String((request.query("code") ?? "").prefix(6).filter(\.isASCII).filter(\.isNumber))
            var headers = Self.publicPageHeaders
            headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
            return Response(status: .ok, headers: headers,
                            body: ResponseBody(string: KioskDocument.checkInLinkPage(code: digits, settings: services.sharePageSettings)))
        }
    }

    /// Headers of the kiosk's page: its own origin only, never cached (it shows a live code
    /// and its address is the secret), no referrer (the address would leak with it).
    static let kioskPageHeaders: HTTPHeaders = [
        "Cache-Control": "no-store",
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    ]

    private func kioskPage(token: String) throws -> Response {
        let settings = services.sharePageSettings
        let language = settings.language
        let status: HTTPStatus
        let html: String
        switch try domain.kiosks.screen(token: token) {
        case nil:
            (status, html) = (.notFound, KioskDocument.message(title: language.notFoundTitle, detail: language.kioskNotFoundDetail, settings: settings))
        case let .gone(reason)?:
            (status, html) = (.gone, KioskDocument.message(title: language.kioskGoneTitle(reason), detail: language.kioskGoneDetail(reason),
                                                           settings: settings))
        case let .live(view)?:
            let state = KioskDocument.State(view: view, settings: settings, presentation: presentation)
            (status, html) = (.ok, KioskDocument.page(state, settings: settings, stateURL: "/k/\(token)/state"))
        }
        var headers = Self.kioskPageHeaders
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        return Response(status: status, headers: headers, body: ResponseBody(string: html))
    }

    private func kioskState(token: String) throws -> Response {
        let language = services.sharePageSettings.language
        switch try domain.kiosks.screen(token: token) {
        case nil:
            throw HTTPError(.notFound, code: "kiosk_not_found", title: language.notFoundTitle, detail: language.kioskNotFoundDetail,
                            headers: ["Cache-Control": "no-store"])
        case let .gone(reason)?:
            throw HTTPError(.gone, code: "kiosk_\(reason.rawValue)", title: language.kioskGoneTitle(reason), detail: language.kioskGoneDetail(reason),
                            headers: ["Cache-Control": "no-store"])
        case let .live(view)?:
            let state = KioskDocument.State(view: view, settings: services.sharePageSettings, presentation: presentation)
            return .json(bytes: state.json, headers: ["Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"])
        }
    }
}
