import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// The moderators' pages: the report queue with an action form per subject, the audit
    /// log, and members (search, suspend, lift). The domain decides who is a moderator
    /// (admins and those granted it); anyone else gets the page that does not exist.
    func registerConsoleModerationRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleReportQueue) { request, _ in
            try consolePage(request) { visitor, _ in try queuePage(visitor, failed: nil) }
        }
        router.on(Operations.consoleModerate) { request, _ in
            try consolePage(request) { visitor, form in
                do {
                    try moderate(visitor, form)
                } catch let error as DomainError where error.reason != .notPermitted {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try moderationFormFailed(visitor, form, message, status)
                } catch let error as HTTPError {
                    return try moderationFormFailed(visitor, form, error.detail, error.status)
                }
                return Self.seeOther(form["return"] == "members" ? "/console/members?q=" + ConsoleForm.encoded(form["q"] ?? "") : "/console/moderation")
            }
        }
        router.on(Operations.consoleAuditLog) { request, _ in
            try consolePage(request) { visitor, _ in try auditPage(visitor) }
        }
        router.on(Operations.consoleMembers) { request, _ in
            try consolePage(request) { visitor, _ in try membersPage(visitor, query: request.query("q") ?? "", failed: nil) }
        }
        // An admin resets a member's second factor (a lost phone), as `belay users
        // reset-second-factor` does: written to the audit log with the admin's name and reason.
        router.on(Operations.consoleResetSecondFactor) { request, context in
            try consolePage(request) { visitor, form in
                guard visitor.isAdmin else { throw ConsolePageNotFound() }
                let userID = try context.id()
                let member = try domain.users.user(id: userID)
                let reason = form.trimmed("reason")
                let query = form.trimmed("q").isEmpty ? member.handle : form.trimmed("q")
                let had: Bool
                do {
                    had = try domain.secondFactors.reset(userID: userID, by: visitor.actor, reason: reason)
                } catch let error as DomainError where error.reason == .invalidInput || error.reason == .contentRefused {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try membersPage(visitor, query: query, failed: nil, notice: (message, true), status: status)
                }
                let word = visitor.language.word
                return try membersPage(visitor, query: query, failed: nil,
                                       notice: ("@\(member.handle): " + word(had ? .secondFactorWasReset : .secondFactorNone), !had))
            }
        }
    }

    /// The content as first reported: its fields one a line when it is a JSON object (as the
    /// domain keeps it), else the text as it is.
    static func snapshotHTML(_ snapshot: String) -> String {
        let e = HTMLText.escaped
        guard let members = (try? JSONParser.parse(snapshot))?.objectValue, !members.isEmpty else {
            return "<blockquote>\(e(snapshot))</blockquote>"
        }
        var html = "<blockquote><dl class=\"snapshot\">"
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            let text: String
            switch value {
            case let .string(string): text = string
            case .null: text = ""
            default: text = String(decoding: JSONOutput.bytes(of: value), as: UTF8.self)
            }
            html += "<dt>\(e(key))</dt><dd>\(e(text))</dd>"
        }
        return html + "</dl></blockquote>"
    }

    /// The page the refused form was on, with the form as it was sent and why.
    private func moderationFormFailed(_ visitor: ConsoleVisitor, _ form: ConsoleForm, _ message: String, _ status: HTTPStatus) throws -> Response {
        if form["return"] == "members" {
            return try membersPage(visitor, query: form["q"] ?? "", failed: (form, message), status: status)
        }
        return try queuePage(visitor, failed: (form, message), status: status)
    }

    /// Acts as `POST /v1/moderation/actions` does, from a form.
    private func moderate(_ visitor: ConsoleVisitor, _ form: ConsoleForm) throws {
        guard let kind = ModerationActionKind(rawValue: form.trimmed("action")), ModerationActionKind.requestable.contains(kind) else {
            throw HTTPError(.unprocessableContent, code: "invalid_input", detail: "Choose what to do: dismiss, hide, warn, suspend or lift.")
        }
        guard let type = ReportSubjectType(rawValue: form.trimmed("subject_type")) else {
            throw HTTPError(.unprocessableContent, code: "invalid_input", detail: "This form names no subject; reload the page and try again.")
        }
        var until: Date?
        let untilText = form.trimmed("until")
        if !untilText.isEmpty {
            guard let date = Self.localTime(untilText, zone: presentation.clubZone.zone) else {
                throw HTTPError(.unprocessableContent, code: "invalid_input", detail: "Until is a date and time such as 2026-12-31T23:59, or empty for good.")
            }
            until = date
        }
        _ = try domain.moderation.act(ModerationRequest(action: kind, subjectType: type, subjectID: form.trimmed("subject_id"),
                                                        reason: form.trimmed("reason"), until: until), by: visitor.actor)
        // As the API does: a suspended member's cached authentications and a hidden page's cached answer go at once.
        tokenCache.removeAll()
        sharePageCache.removeAll()
    }

    /// The form that acts on one subject; `failed` keeps what was typed and says what was wrong.
    private func actionForm(_ visitor: ConsoleVisitor, type: ReportSubjectType, id: String, failed: (ConsoleForm, String)?,
                            extra: [(String, String)] = []) -> String {
        let e = HTMLText.escaped
        let word = visitor.language.word
        let mine = failed.flatMap { $0.0["subject_type"] == type.rawValue && $0.0["subject_id"] == id ? $0 : nil }
        let chosen = mine?.0["action"] ?? ""
        let key = "\(type.rawValue)-\(id)".filter { $0.isLetter || $0.isNumber || $0 == "-" }
        var html = "<form class=\"act\" method=\"post\" action=\"/console/moderation/actions\">" + ConsoleDocument.csrfField(visitor.formToken)
        html += "<input type=\"hidden\" name=\"subject_type\" value=\"\(e(type.rawValue))\"><input type=\"hidden\" name=\"subject_id\" value=\"\(e(id))\">"
        for (name, value) in extra { html += "<input type=\"hidden\" name=\"\(e(name))\" value=\"\(e(value))\">" }
        html += ConsoleDocument.errorBox(mine?.1)
        html += "<div class=\"field\"><label for=\"action-\(key)\">\(e(word(.action)))</label><select id=\"action-\(key)\" name=\"action\">"
        let names: [ModerationActionKind: ConsoleWord] = [.dismiss: .dismiss, .hide: .hide, .warn: .warn, .suspend: .suspend, .lift: .lift]
        for kind in ModerationActionKind.requestable {
            html += "<option value=\"\(kind.rawValue)\"\(chosen == kind.rawValue ? " selected" : "")>\(e(names[kind].map(word) ?? kind.rawValue))</option>"
        }
        html += "</select></div>"
        html += ConsoleDocument.field(name: "reason", id: "reason-\(key)", label: word(.reason), value: mine?.0["reason"] ?? "")
        html += ConsoleDocument.field(name: "until", id: "until-\(key)", label: word(.until), value: mine?.0["until"] ?? "", type: "datetime-local",
                                      hint: word(.forGood), required: false)
        html += "<button type=\"submit\">\(e(word(.act)))</button></form>"
        return html
    }

    private func moderationTabs(_ visitor: ConsoleVisitor, current: String) -> String {
        let e = HTMLText.escaped
        let word = visitor.language.word
        let tabs = [("/console/moderation", word(.queue)), ("/console/moderation/audit", word(.audit)), ("/console/members", word(.members))]
        return "<nav class=\"tabs\" aria-label=\"\(e(word(.moderation)))\">" + tabs.map { path, label in
            "<a href=\"\(path)\"\(path == current ? " aria-current=\"page\"" : "")>\(e(label))</a>"
        }.joined() + "</nav>"
    }

    private func queuePage(_ visitor: ConsoleVisitor, failed: (ConsoleForm, String)?, status: HTTPStatus = .ok) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let subjects = try domain.moderation.queue(limit: 100, by: visitor.actor)
        var main = "<h1>\(e(word(.queue)))</h1>" + moderationTabs(visitor, current: "/console/moderation")
        if let failed, !subjects.contains(where: { $0.subjectType.rawValue == failed.0["subject_type"] && $0.subjectID == failed.0["subject_id"] }) {
            main += ConsoleDocument.errorBox(failed.1)
        }
        if subjects.isEmpty { main += "<p class=\"empty\">\(e(word(.noReports)))</p>" }
        for subject in subjects {
            main += "<section class=\"report\" aria-labelledby=\"subject-\(e(subject.subjectType.rawValue))-\(e(subject.subjectID))\">"
            main += "<h2 id=\"subject-\(e(subject.subjectType.rawValue))-\(e(subject.subjectID))\">\(e(language.subject(subject.subjectType))) \(e(subject.subjectID))"
            if subject.hidden { main += " <span class=\"tag\">\(e(word(.hide)))</span>" }
            main += "</h2>" + Self.snapshotHTML(subject.snapshot)
            let reasons = subject.reasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) × \($0.value)" }.joined(separator: ", ")
            main += "<p>\(e(word(.reports))): \(subject.reports.count) (\(e(reasons)))"
            if let first = subject.firstReportedAt {
                main += " · \(e(KioskDocument.format(first, template: "yMMMdjmm", zone: presentation.clubZone.zone, locale: language.localeIdentifier)))"
            }
            main += "</p>"
            let notes = subject.reports.map(\.note).filter { !$0.isEmpty }
            if !notes.isEmpty { main += "<ul class=\"notes\">" + notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>" }
            main += actionForm(visitor, type: subject.subjectType, id: subject.subjectID, failed: failed)
            main += "</section>"
        }
        return Self.htmlPage(ConsoleDocument.page(title: word(.queue), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .moderation, main: main), status: status)
    }

    private func auditPage(_ visitor: ConsoleVisitor) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let actions = try domain.moderation.audit(limit: 200, by: visitor.actor).items
        var main = "<h1>\(e(word(.audit)))</h1>" + moderationTabs(visitor, current: "/console/moderation/audit")
        main += "<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">\(e(word(.whenDone)))</th><th scope=\"col\">\(e(word(.action)))</th>"
        main += "<th scope=\"col\">\(e(word(.subject)))</th><th scope=\"col\">\(e(word(.reason)))</th><th scope=\"col\">\(e(word(.who)))</th></tr></thead><tbody>"
        for action in actions {
            let who = action.moderatorID.flatMap { try? domain.users.user(id: $0) }.map { "@" + $0.handle } ?? "Belay"
            main += "<tr><td>\(e(KioskDocument.format(action.createdAt, template: "yMMMdjmm", zone: presentation.clubZone.zone, locale: language.localeIdentifier)))</td>"
            main += "<td>\(e(action.action.rawValue))</td><td>\(e(language.subject(action.subjectType))) \(e(action.subjectID))</td>"
            main += "<td>\(e(action.reason))</td><td>\(e(who))</td></tr>"
        }
        main += "</tbody></table></div>"
        return Self.htmlPage(ConsoleDocument.page(title: word(.audit), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .moderation, main: main))
    }

    /// Members whose name or handle holds `query` (the club's members read page by page; a
    /// club has thousands, not millions), each with the form to suspend or lift.
    private func membersPage(_ visitor: ConsoleVisitor, query: String, failed: (ConsoleForm, String)?,
                             notice: (text: String, warning: Bool)? = nil, status: HTTPStatus = .ok) throws -> Response {
        guard visitor.isModerator else { throw ConsolePageNotFound() }
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        var found: [User] = []
        if !needle.isEmpty {
            var cursor: String?
            var pages = 0
            repeat {
                let page = try domain.users.listUsers(limit: 200, cursor: cursor)
                found += page.items.filter { ($0.displayName + " " + $0.handle).lowercased().contains(needle) }
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 100 && found.count < 50
        }
        var main = "<h1>\(e(word(.members)))</h1>" + moderationTabs(visitor, current: "/console/members")
        if let notice { main += "<p class=\"notice\(notice.warning ? " warn" : "")\" role=\"status\" id=\"member-notice\">\(e(notice.text))</p>" }
        main += """
        <form class="search" method="get" action="/console/members" role="search">
        <label for="q">\(e(word(.search)))</label>
        <input id="q" name="q" type="search" value="\(e(query))" placeholder="\(e(word(.searchHint)))" autocomplete="off">
        <button type="submit" class="secondary">\(e(word(.search)))</button>
        </form>
        """
        for user in found.prefix(50) {
            main += "<section class=\"report\" aria-labelledby=\"member-\(user.id)\"><h2 id=\"member-\(user.id)\">\(e(user.displayName)) "
            main += "<span class=\"handle\">@\(e(user.handle))</span></h2><p>\(e(word(.role))): \(e(language.role(user.role)))"
            if visitor.isAdmin { main += " · <a href=\"/console/members/\(user.id)/devices\">\(e(word(.devices)))</a>" }
            main += "</p>"
            if visitor.isAdmin { main += try secondFactorResetForm(visitor, member: user, query: query) }
            main += actionForm(visitor, type: .member, id: String(user.id), failed: failed, extra: [("return", "members"), ("q", query)])
            main += "</section>"
        }
        return Self.htmlPage(ConsoleDocument.page(title: word(.members), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .moderation, main: main), status: status)
    }

    /// For admins: whether the member has a second factor and, when they do, the form that
    /// resets it (with a reason for the audit log).
    private func secondFactorResetForm(_ visitor: ConsoleVisitor, member: User, query: String) throws -> String {
        let e = HTMLText.escaped
        let word = visitor.language.word
        guard try domain.secondFactors.state(userID: member.id).enrolled else {
            return "<p class=\"hint\" id=\"second-factor-\(member.id)\">\(e(word(.secondFactorNone)))</p>"
        }
        return """
        <form method="post" action="/console/members/\(member.id)/second-factor/reset" class="second-factor-reset">
        \(ConsoleDocument.csrfField(visitor.formToken))
        <input type="hidden" name="q" value="\(e(query))">
        <p id="second-factor-\(member.id)">\(e(word(.secondFactorOn)))</p>
        <p class="hint">\(e(word(.resetSecondFactorHelp)))</p>
        <label for="reset-reason-\(member.id)">\(e(word(.reason)))</label>
        <input id="reset-reason-\(member.id)" name="reason" type="text" autocomplete="off">
        <button type="submit" class="secondary">\(e(word(.resetSecondFactor)))</button>
        </form>
        """
    }
}
