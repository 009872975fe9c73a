import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// A member's push devices, for admins (what `belay push devices` lists), with a test
    /// notice sent to each of them (`belay push test`). Anyone else gets the page that does
    /// not exist: the domain lets only admins (or the member) see them.
    func registerConsoleDeviceRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleMemberDevices) { request, context in
            try consolePage(request) { visitor, _ in try devicesPage(visitor, userID: try context.id(), notice: nil) }
        }
        router.on(Operations.consoleTestNotice) { request, context in
            try consolePage(request) { visitor, _ in
                let userID = try context.id()
                let queued = try domain.push.queueTest(userID: userID, by: visitor.actor)
                let word = visitor.language.word
                if !queued.isEmpty { return try devicesPage(visitor, userID: userID, notice: ("\(word(.testQueued)) \(queued.count)", false)) }
                let none = try domain.push.devices(userID: userID, by: visitor.actor).isEmpty
                return try devicesPage(visitor, userID: userID, notice: (word(none ? .noDevices : .testNothing), true))
            }
        }
    }

    private func devicesPage(_ visitor: ConsoleVisitor, userID: Int64, notice: (text: String, warning: Bool)?) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let zone = presentation.clubZone.zone
        // The permission first: a member who may not see them learns nothing of who exists.
        let devices = try domain.push.devices(userID: userID, by: visitor.actor)
        let member = try domain.users.user(id: userID)
        var main = "<p class=\"sub\"><a href=\"/console/members?q=\(ConsoleForm.encoded(member.handle))\">\(e(word(.members)))</a></p>"
        main += "<h1>\(e(word(.devices))): \(e(member.displayName)) <span class=\"handle\">@\(e(member.handle))</span></h1>"
        if let notice { main += "<p class=\"notice\(notice.warning ? " warn" : "")\" role=\"status\" id=\"device-notice\">\(e(notice.text))</p>" }
        if devices.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noDevices)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table><caption class=\"visually-hidden\">\(e(word(.devices)))</caption><thead><tr>"
            main += "<th scope=\"col\">\(e(word(.platform)))</th><th scope=\"col\">\(e(word(.app)))</th><th scope=\"col\">\(e(word(.token)))</th>"
            main += "<th scope=\"col\">\(e(word(.registered)))</th><th scope=\"col\">\(e(word(.updated)))</th></tr></thead><tbody>"
            for device in devices {
                // The token is a secret of the member's phone: its start is enough to tell devices apart.
                let token = String(device.token.prefix(8)) + "…"
                main += "<tr><th scope=\"row\">\(e(device.platform.rawValue)) <span class=\"sub\">\(e(device.environment.rawValue))</span></th>"
                main += "<td>\(e(device.appID))</td><td><code>\(e(token))</code></td>"
                main += "<td>\(e(KioskDocument.format(device.createdAt, template: "yMMMdjmm", zone: zone, locale: language.localeIdentifier)))</td>"
                main += "<td>\(e(KioskDocument.format(device.updatedAt, template: "yMMMdjmm", zone: zone, locale: language.localeIdentifier)))</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        main += """
        <form class="actions" method="post" action="/console/members/\(userID)/devices/test">
        \(ConsoleDocument.csrfField(visitor.formToken))
        <button type="submit">\(e(word(.sendTest)))</button>
        </form>
        """
        return Self.htmlPage(ConsoleDocument.page(title: word(.devices), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .moderation, main: main))
    }
}
