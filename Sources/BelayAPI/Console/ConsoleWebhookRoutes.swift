import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// Webhook endpoints for admins, as `/v1/webhooks`: the list, a new endpoint (its secret
    /// shown once), removing one, an endpoint's recent deliveries and sending one again.
    /// Anyone else gets the page that does not exist (the domain refuses them).
    func registerConsoleWebhookRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleWebhooks) { request, _ in
            try consolePage(request) { visitor, _ in try webhooksPage(visitor, form: ConsoleForm(), error: nil) }
        }
        router.on(Operations.consoleAddWebhook) { request, _ in
            try consolePage(request) { visitor, form in
                let endpoint: WebhookEndpoint
                do {
                    let chosen = form.fields.filter { $0.name == "events" }.map(\.value).joined(separator: ",")
                    let events = try WebhookEventType.parseList(chosen)
                    endpoint = try domain.webhooks.add(url: form.trimmed("url"), description: form.trimmed("description"), events: events,
                                                       by: visitor.actor)
                } catch let error as DomainError where error.reason == .invalidInput {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try webhooksPage(visitor, form: form, error: (error.field, message), status: status)
                }
                return try webhookPage(visitor, endpoint, notice: visitor.language.word(.webhookAdded), error: nil, shownSecret: endpoint.secret,
                                       status: .created)
            }
        }
        router.on(Operations.consoleWebhook) { request, context in
            try consolePage(request) { visitor, _ in
                try webhookPage(visitor, try domain.webhooks.endpoint(id: try context.id(), by: visitor.actor), notice: nil, error: nil)
            }
        }
        router.on(Operations.consoleRemoveWebhook) { request, context in
            try consolePage(request) { visitor, _ in
                try domain.webhooks.remove(id: try context.id(), by: visitor.actor)
                return Self.seeOther("/console/webhooks")
            }
        }
        router.on(Operations.consoleRedeliverWebhook) { request, context in
            try consolePage(request) { visitor, _ in
                let id = try context.id()
                do {
                    _ = try domain.webhooks.redeliver(deliveryID: try context.id("delivery_id"), endpointID: id, by: visitor.actor)
                } catch let error as DomainError where error.reason == .invalidInput {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try webhookPage(visitor, try domain.webhooks.endpoint(id: id, by: visitor.actor), notice: nil, error: message, status: status)
                }
                return try webhookPage(visitor, try domain.webhooks.endpoint(id: id, by: visitor.actor), notice: visitor.language.word(.redelivered),
                                       error: nil)
            }
        }
    }

    private func webhooksPage(_ visitor: ConsoleVisitor, form: ConsoleForm, error: (field: String?, message: String)?,
                              status: HTTPStatus = .ok) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let endpoints = try domain.webhooks.endpoints(by: visitor.actor)
        func fieldError(_ name: String) -> String? { error.flatMap { $0.field == name ? $0.message : nil } }
        let named = ["url", "description", "events"].contains { fieldError($0) != nil }
        var main = "<h1>\(e(word(.webhooks)))</h1>"
        if endpoints.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noWebhooks)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table><caption class=\"visually-hidden\">\(e(word(.webhooks)))</caption><thead><tr>"
            main += "<th scope=\"col\">\(e(word(.url)))</th><th scope=\"col\">\(e(word(.events)))</th><th scope=\"col\">\(e(word(.status)))</th></tr></thead><tbody>"
            for endpoint in endpoints {
                main += "<tr><th scope=\"row\"><a href=\"/console/webhooks/\(endpoint.id)\">\(e(endpoint.url))</a>"
                if !endpoint.description.isEmpty { main += "<span class=\"sub\">\(e(endpoint.description))</span>" }
                main += "</th><td>\(e(Self.eventList(endpoint)))</td><td>\(webhookState(endpoint, language))</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        let chosen = Set(form.fields.filter { $0.name == "events" }.map(\.value))
        main += "<h2>\(e(word(.newWebhook)))</h2>"
        main += """
        <form method="post" action="/console/webhooks" novalidate class="narrow-form">
        \(ConsoleDocument.csrfField(visitor.formToken))
        \(named ? "" : ConsoleDocument.errorBox(error?.message))
        \(ConsoleDocument.field(name: "url", label: word(.url), value: form["url"] ?? "", type: "url", hint: word(.urlHint), error: fieldError("url"),
                                extra: " autocomplete=\"off\" spellcheck=\"false\""))
        \(ConsoleDocument.field(name: "description", label: word(.description), value: form["description"] ?? "", error: fieldError("description"),
                                required: false))
        \(eventChoices(chosen, error: fieldError("events"), language))
        <button type="submit">\(e(word(.newWebhook)))</button>
        </form>
        """
        return Self.htmlPage(ConsoleDocument.page(title: word(.webhooks), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .webhooks, main: main), status: status)
    }

    /// A checkbox per event type, the ones sent checked again; none checked means every type.
    private func eventChoices(_ chosen: Set<String>, error: String?, _ language: SharePageLanguage) -> String {
        let e = HTMLText.escaped
        var html = "<fieldset class=\"choices\" aria-describedby=\"events-hint\(error == nil ? "" : " events-error")\"><legend>\(e(language.word(.events)))</legend>"
        html += "<span class=\"hint\" id=\"events-hint\">\(e(language.word(.allEvents)))</span>"
        if let error { html += " <span class=\"field-error\" id=\"events-error\">\(e(error))</span>" }
        html += "<div class=\"options\">"
        for type in WebhookEventType.allCases where type != .webhookTest {
            let id = "event-" + type.rawValue.replacingOccurrences(of: ".", with: "-")
            html += "<label for=\"\(id)\"><input type=\"checkbox\" id=\"\(id)\" name=\"events\" value=\"\(e(type.rawValue))\""
            html += chosen.contains(type.rawValue) ? " checked>" : ">"
            html += "\(e(type.rawValue))</label>"
        }
        // A value no checkbox has (sent by hand) is kept, so the refusal names what was sent.
        for other in chosen.subtracting(WebhookEventType.allCases.map(\.rawValue)).sorted() {
            html += "<label><input type=\"checkbox\" name=\"events\" value=\"\(e(other))\" checked aria-invalid=\"true\">\(e(other))</label>"
        }
        return html + "</div></fieldset>"
    }

    private static func eventList(_ endpoint: WebhookEndpoint) -> String {
        endpoint.eventTypes.isEmpty ? "*" : endpoint.eventTypes.map(\.rawValue).sorted().joined(separator: ", ")
    }

    private func webhookState(_ endpoint: WebhookEndpoint, _ language: SharePageLanguage) -> String {
        let e = HTMLText.escaped
        if endpoint.isEnabled { return "<span class=\"status checked_in\">\(e(language.word(.enabled)))</span>" }
        return "<span class=\"status waitlisted\">\(e(language.word(.disabled)))</span> <span class=\"sub\">\(e(endpoint.disabledReason ?? ""))</span>"
    }

    private func webhookPage(_ visitor: ConsoleVisitor, _ endpoint: WebhookEndpoint, notice: String?, error: String?, shownSecret: String? = nil,
                             status: HTTPStatus = .ok) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let zone = presentation.clubZone.zone
        let deliveries = try domain.webhooks.deliveries(endpointID: endpoint.id, limit: 50, by: visitor.actor).items
        var main = "<p class=\"sub\"><a href=\"/console/webhooks\">\(e(word(.webhooks)))</a></p><h1>\(e(endpoint.url))</h1>"
        main += "<p class=\"sub\">\(e(endpoint.description.isEmpty ? "" : endpoint.description + " · "))\(e(word(.events))): \(e(Self.eventList(endpoint))) · "
        main += webhookState(endpoint, language) + "</p>"
        if let notice { main += "<p class=\"notice\" role=\"status\">\(e(notice))</p>" }
        main += ConsoleDocument.errorBox(error)
        if let shownSecret {
            main += "<section class=\"kiosk-link\" aria-labelledby=\"secret-heading\"><h2 id=\"secret-heading\">\(e(word(.signingSecret)))</h2>"
            main += "<p>\(e(word(.secretOnce)))</p><p><code class=\"secret\" id=\"webhook-secret\">\(e(shownSecret))</code></p></section>"
        }
        main += "<h2>\(e(word(.deliveries)))</h2>"
        if deliveries.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noDeliveries)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table><caption class=\"visually-hidden\">\(e(word(.deliveries)))</caption><thead><tr>"
            main += "<th scope=\"col\">\(e(word(.event)))</th><th scope=\"col\">\(e(word(.status)))</th><th scope=\"col\" class=\"number\">\(e(word(.attempts)))</th>"
            main += "<th scope=\"col\">\(e(word(.answer)))</th><th scope=\"col\"><span class=\"visually-hidden\">\(e(word(.act)))</span></th></tr></thead><tbody>"
            for delivery in deliveries {
                let (label, style): (ConsoleWord, String) = switch delivery.status {
                case .pending: (.deliveryPending, "waitlisted")
                case .succeeded: (.deliverySucceeded, "checked_in")
                case .failed: (.deliveryFailed, "failed")
                }
                let at = delivery.lastAttemptAt ?? delivery.createdAt
                main += "<tr id=\"delivery-\(delivery.id)\"><th scope=\"row\">\(e(delivery.eventType))<span class=\"sub\">"
                main += "\(e(KioskDocument.format(at, template: "yMMMdjmmss", zone: zone, locale: language.localeIdentifier))) · \(e(delivery.messageID))</span></th>"
                main += "<td><span class=\"status \(style)\">\(e(word(label)))</span></td><td class=\"number\">\(delivery.attempts)</td>"
                // The error names the status when there is one ("the endpoint answered HTTP 503: …").
                var answer = delivery.lastError ?? delivery.lastStatusCode.map { "HTTP \($0)" } ?? ""
                if let next = delivery.nextAttemptAt {
                    let when = "\(word(.nextAttempt)): \(KioskDocument.format(next, template: "jmmss", zone: zone, locale: language.localeIdentifier))"
                    answer = answer.isEmpty ? when : answer + " · " + when
                }
                main += "<td class=\"answer\">\(e(answer))</td><td class=\"row-actions\">"
                if delivery.status != .pending && endpoint.isEnabled {
                    main += "<form method=\"post\" action=\"/console/webhooks/\(endpoint.id)/deliveries/\(delivery.id)/redeliver\">"
                    main += ConsoleDocument.csrfField(visitor.formToken)
                    main += "<button type=\"submit\" class=\"secondary\" aria-label=\"\(e(word(.redeliver))) \(delivery.id)\">\(e(word(.redeliver)))</button></form>"
                }
                main += "</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        main += """
        <form class="actions" method="post" action="/console/webhooks/\(endpoint.id)/remove">
        \(ConsoleDocument.csrfField(visitor.formToken))
        <button type="submit" class="danger">\(e(word(.removeWebhook)))</button>
        </form>
        """
        return Self.htmlPage(ConsoleDocument.page(title: word(.webhooks), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .webhooks, main: main), status: status)
    }
}
