import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// Invite codes (`accounts.sign_up` = `invite`): the list, a new code, revoking one. As
    /// `/v1/invites`: hosts see and revoke their own, admins everyone's; members get the page
    /// that does not exist.
    func registerConsoleInviteRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleInvites) { request, _ in
            try consolePage(request) { visitor, _ in try invitesPage(visitor, form: ConsoleForm(), notice: nil, error: nil) }
        }
        router.on(Operations.consoleCreateInvite) { request, _ in
            try consolePage(request) { visitor, form in
                let now = domain.clock.now()
                let invite: Invite
                do {
                    let uses = try Self.consoleInteger(form, "uses", range: 1...10_000, words: visitor.language.word(.usesHint))
                    let days = try Self.consoleInteger(form, "days", range: 1...365, words: visitor.language.word(.daysHint))
                    invite = try domain.invites.create(uses: uses, expiresAt: now.addingTimeInterval(TimeInterval(days) * 86_400), by: visitor.actor)
                } catch let error as DomainError where error.reason == .invalidInput {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try invitesPage(visitor, form: form, notice: nil, error: (error.field, message), status: status)
                } catch let error as HTTPError {
                    return try invitesPage(visitor, form: form, notice: nil, error: (error.extensions["field"]?.stringValue, error.detail),
                                           status: error.status)
                }
                return try invitesPage(visitor, form: ConsoleForm(), notice: visitor.language.word(.inviteCreated) + " " + invite.code, error: nil,
                                       status: .created)
            }
        }
        router.on(Operations.consoleRevokeInvite) { request, context in
            try consolePage(request) { visitor, _ in
                _ = try domain.invites.revoke(id: try context.id(), by: visitor.actor)
                return Self.seeOther("/console/invites")
            }
        }
    }

    /// A whole number typed in a form, within `range`.
    /// - Throws: `HTTPError` 422 naming the field, with `words`.
    static func consoleInteger(_ form: ConsoleForm, _ name: String, range: ClosedRange<Int>, words: String) throws -> Int {
        guard let value = Int(form.trimmed(name)), range.contains(value) else {
            throw HTTPError(.unprocessableContent, code: RefusalReason.invalidInput.rawValue, detail: words, extensions: ["field": .string(name)])
        }
        return value
    }

    private func invitesPage(_ visitor: ConsoleVisitor, form: ConsoleForm, notice: String?, error: (field: String?, message: String)?,
                             status: HTTPStatus = .ok) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let invites = try domain.invites.list(by: visitor.actor)
        let now = domain.clock.now()
        let zone = presentation.clubZone.zone
        func fieldError(_ name: String) -> String? { error.flatMap { $0.field == name || ($0.field == "expires_at" && name == "days") ? $0.message : nil } }
        let named = fieldError("uses") != nil || fieldError("days") != nil
        var main = "<h1>\(e(word(.invites)))</h1><p class=\"sub\">\(e(word(.inviteHelp)))</p>"
        if let notice { main += "<p class=\"notice\" role=\"status\" id=\"invite-notice\">\(e(notice))</p>" }
        main += """
        <form class="add" method="post" action="/console/invites" novalidate>
        \(ConsoleDocument.csrfField(visitor.formToken))
        \(named ? "" : ConsoleDocument.errorBox(error?.message))
        \(ConsoleDocument.field(name: "uses", label: word(.uses), value: form["uses"] ?? "1", type: "number", hint: word(.usesHint), error: fieldError("uses"),
                                extra: " min=\"1\" max=\"10000\" inputmode=\"numeric\""))
        \(ConsoleDocument.field(name: "days", label: word(.days), value: form["days"] ?? "7", type: "number", hint: word(.daysHint), error: fieldError("days"),
                                extra: " min=\"1\" max=\"365\" inputmode=\"numeric\""))
        <button type="submit">\(e(word(.newInvite)))</button>
        </form>
        """
        if invites.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noInvites)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table><caption class=\"visually-hidden\">\(e(word(.invites)))</caption><thead><tr>"
            main += "<th scope=\"col\">\(e(word(.inviteCode)))</th><th scope=\"col\" class=\"number\">\(e(word(.used)))</th>"
            main += "<th scope=\"col\">\(e(word(.expires)))</th>"
            if visitor.isAdmin { main += "<th scope=\"col\">\(e(word(.createdBy)))</th>" }
            main += "<th scope=\"col\">\(e(word(.status)))</th>"
            main += "<th scope=\"col\"><span class=\"visually-hidden\">\(e(word(.act)))</span></th></tr></thead><tbody>"
            var makers: [Int64: String] = [:]
            for invite in invites {
                let state: String
                if invite.revokedAt != nil { state = word(.revoked) } else if now >= invite.expiresAt { state = word(.expired) }
                else if invite.uses >= invite.maxUses { state = word(.used) } else { state = word(.enabled) }
                main += "<tr id=\"invite-\(invite.id)\"><th scope=\"row\"><code>\(e(invite.code))</code>"
                main += "<span class=\"sub\"><a href=\"\(e(inviteLink(invite.code)))\">\(e(word(.link)))</a></span></th>"
                main += "<td class=\"number\">\(invite.uses) / \(invite.maxUses)</td>"
                main += "<td>\(e(KioskDocument.format(invite.expiresAt, template: "yMMMdjmm", zone: zone, locale: language.localeIdentifier)))</td>"
                if visitor.isAdmin {
                    // Everyone's invites: who made each (the command line makes some).
                    let maker = invite.createdBy.flatMap { id in makers[id] ?? (try? domain.users.user(id: id)).map { "@" + $0.handle } } ?? "belay"
                    if let id = invite.createdBy { makers[id] = maker }
                    main += "<td>\(e(maker))</td>"
                }
                main += "<td><span class=\"status\">\(e(state))</span></td><td class=\"row-actions\">"
                if invite.isUsable(at: now) {
                    main += "<form method=\"post\" action=\"/console/invites/\(invite.id)/revoke\">\(ConsoleDocument.csrfField(visitor.formToken))"
                    main += "<button type=\"submit\" class=\"danger\" aria-label=\"\(e(word(.revoke))) \(e(invite.code))\">\(e(word(.revoke)))</button></form>"
                }
                main += "</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        return Self.htmlPage(ConsoleDocument.page(title: word(.invites), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .invites, main: main), status: status)
    }
}
