import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// A meetup's co-hosts, as `/v1/meetups/{id}/cohosts`: everyone who manages the meetup sees
    /// them; its host and admins add one by handle (a host or admin the caller may see) and
    /// remove one. Anyone else gets the page that does not exist.
    func registerConsoleCohostRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleCohosts) { request, context in
            try consolePage(request) { visitor, _ in
                try cohostsPage(visitor, try managedMeetup(try context.id(), visitor), notice: nil, error: nil, typedHandle: "")
            }
        }
        router.on(Operations.consoleAddCohost) { request, context in
            try consolePage(request) { visitor, form in
                let meetup = try managedMeetup(try context.id(), visitor)
                guard Self.namesCohosts(meetup, visitor) else { throw ConsolePageNotFound() }
                let typed = form.trimmed("handle")
                let handle = typed.hasPrefix("@") ? String(typed.dropFirst()) : typed
                do {
                    // A handle nobody has and one the host may not see answer alike.
                    let user: User
                    do { user = try domain.users.user(handle: handle) } catch let error as DomainError where error.reason == .userNotFound {
                        throw HTTPError(.notFound, code: "user_not_found", detail: visitor.language.word(.noSuchHandle))
                    }
                    do { try domain.meetups.addCohost(meetupID: meetup.id, userID: user.id, by: visitor.actor) } catch let error as DomainError where error.reason == .userNotFound {
                        throw HTTPError(.notFound, code: "user_not_found", detail: visitor.language.word(.noSuchHandle))
                    }
                } catch let error as HTTPError {
                    return try cohostsPage(visitor, meetup, notice: nil, error: error.detail, typedHandle: typed, status: error.status)
                } catch let error as DomainError where [.notPermitted, .invalidInput, .meetupCancelled, .meetupCompleted].contains(error.reason) {
                    // The caller may name co-hosts (checked above): this refusal is about whom they named.
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try cohostsPage(visitor, meetup, notice: nil, error: message, typedHandle: typed, status: status)
                }
                return try cohostsPage(visitor, meetup, notice: visitor.language.word(.cohostAdded), error: nil, typedHandle: "")
            }
        }
        router.on(Operations.consoleRemoveCohost) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                guard Self.namesCohosts(meetup, visitor) else { throw ConsolePageNotFound() }
                try domain.meetups.removeCohost(meetupID: meetup.id, userID: try context.id("user_id"), by: visitor.actor)
                return Self.seeOther("/console/meetups/\(meetup.id)/cohosts")
            }
        }
    }

    /// Whether the visitor names the meetup's co-hosts: its host and admins (as the domain decides).
    private static func namesCohosts(_ meetup: Meetup, _ visitor: ConsoleVisitor) -> Bool {
        visitor.isAdmin || meetup.hostID == visitor.user.userID
    }

    private func cohostsPage(_ visitor: ConsoleVisitor, _ meetup: Meetup, notice: String?, error: String?, typedHandle: String,
                             status: HTTPStatus = .ok) throws -> Response {
        let e = HTMLText.escaped
        let language = visitor.language
        let word = language.word
        let names = Self.namesCohosts(meetup, visitor)
        let host = try? domain.users.user(id: meetup.hostID)
        let cohosts = try domain.meetups.cohosts(meetupID: meetup.id).compactMap { try? domain.users.user(id: $0) }
        var main = "<p class=\"sub\"><a href=\"/console/meetups/\(meetup.id)\">\(e(meetup.title))</a></p><h1>\(e(word(.cohosts)))</h1>"
        main += "<p class=\"sub\">\(e(word(.cohostsHelp)))</p>"
        if let host { main += "<p>\(e(word(.hostedBy))): <strong>\(e(host.displayName))</strong> <span class=\"handle\">@\(e(host.handle))</span></p>" }
        if let notice { main += "<p class=\"notice\" role=\"status\" id=\"cohost-notice\">\(e(notice))</p>" }
        if cohosts.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noCohosts)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table><caption class=\"visually-hidden\">\(e(word(.cohosts)))</caption><thead><tr>"
            main += "<th scope=\"col\">\(e(word(.members)))</th><th scope=\"col\">\(e(word(.role)))</th>"
            main += "<th scope=\"col\"><span class=\"visually-hidden\">\(e(word(.act)))</span></th></tr></thead><tbody>"
            for user in cohosts {
                main += "<tr id=\"cohost-\(user.id)\"><th scope=\"row\">\(e(user.displayName)) <span class=\"handle\">@\(e(user.handle))</span></th>"
                main += "<td>\(e(language.role(user.role)))</td><td class=\"row-actions\">"
                if names {
                    main += "<form method=\"post\" action=\"/console/meetups/\(meetup.id)/cohosts/\(user.id)/remove\">\(ConsoleDocument.csrfField(visitor.formToken))"
                    main += "<button type=\"submit\" class=\"danger\" aria-label=\"\(e(word(.remove))) @\(e(user.handle))\">\(e(word(.remove)))</button></form>"
                }
                main += "</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        if names && meetup.status == .scheduled {
            main += """
            <form class="add" method="post" action="/console/meetups/\(meetup.id)/cohosts" novalidate>
            \(ConsoleDocument.csrfField(visitor.formToken))
            \(ConsoleDocument.field(name: "handle", label: word(.addCohost), value: typedHandle, error: error, extra: " autocomplete=\"off\" spellcheck=\"false\""))
            <button type="submit">\(e(word(.add)))</button>
            </form>
            """
        } else {
            main += ConsoleDocument.errorBox(error)
        }
        return Self.htmlPage(ConsoleDocument.page(title: word(.cohosts), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main), status: status)
    }
}
