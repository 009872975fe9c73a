import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

/// A meetup the visitor does not manage, or that does not exist: both answer the same page.
struct ConsolePageNotFound: Error {}

extension APIRoutes {
    /// The host's pages: their meetups, a new meetup, the door list (search, check in, undo,
    /// add, remove, live updates), the CSV export, the kiosk and cancelling.
    func registerConsoleMeetupRoutes(on router: Router<APIContext>) {
        router.get("/console", query: ["scope"]) { request, _ in
            try consolePage(request) { visitor, _ in try dashboard(visitor, past: request.query("scope") == "past") }
        }
        router.get("/console/meetups/new") { request, _ in
            try consolePage(request) { visitor, _ in meetupFormPage(visitor, form: ConsoleForm(), error: nil) }
        }
        router.post("/console/meetups") { request, _ in
            try consolePage(request) { visitor, form in try saveMeetup(visitor, editing: nil, form) }
        }
        router.get("/console/meetups/{id}/edit") { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                return meetupFormPage(visitor, editing: meetup, form: meetupForm(meetup), error: nil)
            }
        }
        router.post("/console/meetups/{id}/edit") { request, context in
            try consolePage(request) { visitor, form in try saveMeetup(visitor, editing: try managedMeetup(try context.id(), visitor), form) }
        }
        router.get("/console/meetups/{id}", query: ["q"]) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                return try doorPage(visitor, meetup, query: request.query("q") ?? "", notice: nil, error: nil, typedHandle: "")
            }
        }
        router.get("/console/meetups/{id}/door.json") { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                return try doorState(visitor, meetup)
            }
        }
        router.get("/console/meetups/{id}/attendees.csv") { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
                return Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "private, no-store",
                                                       "Content-Disposition": "attachment; filename=\"meetup-\(meetup.id)-attendees.csv\""],
                                body: ResponseBody(string: AttendeeCSV.text(try allAttendees(meetup.id), zone: zone)))
            }
        }
        for action in DoorAction.allCases {
            router.post("/console/meetups/{id}/\(action.rawValue)") { request, context in
                try consolePage(request) { visitor, form in
                    let wantsJSON = request.headers["Accept"] == "application/json"
                    if action == .checkIn, let memberID = try? Self.memberID(form) {
                        // The check-in decides who may check members in (the meetup's managers, the API's
                        // rule) inside its own transaction: no read of the meetup before it, whose
                        // checked-in count is a count of its check-ins.
                        return deferredCheckIn(meetupID: try context.id(), memberID: memberID, visitor, wantsJSON: wantsJSON)
                    }
                    let meetup = try managedMeetup(try context.id(), visitor)
                    return try doorAction(action, visitor, meetup, form: form, wantsJSON: request.headers["Accept"] == "application/json")
                }
            }
        }
        router.post("/console/meetups/{id}/kiosk") { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                do {
                    let link = try domain.kiosks.createLink(meetupID: meetup.id, by: visitor.actor)
                    return try doorPage(visitor, meetup, query: "", notice: nil, error: nil, typedHandle: "",
                                        kioskURL: KioskLinkBody(link: link, presentation: presentation).url)
                } catch let error as DomainError {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try doorPage(visitor, meetup, query: "", notice: nil, error: message, typedHandle: "", status: status)
                }
            }
        }
        router.post("/console/meetups/{id}/kiosk/off") { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                _ = try domain.kiosks.revokeLinks(meetupID: meetup.id, by: visitor.actor)
                return try doorPage(visitor, meetup, query: "", notice: visitor.language.word(.kiosksTurnedOff), error: nil, typedHandle: "")
            }
        }
        router.post("/console/meetups/{id}/cancel") { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                do {
                    _ = try domain.meetups.cancel(id: meetup.id, by: visitor.actor)
                    services.notifyWebhookWorkers()
                    return Self.seeOther("/console/meetups/\(meetup.id)")
                } catch let error as DomainError {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try doorPage(visitor, meetup, query: "", notice: nil, error: message, typedHandle: "", status: status)
                }
            }
        }
    }

    /// What a door-list form asks for; its path is `/console/meetups/{id}/<raw value>`.
    enum DoorAction: String, CaseIterable, Sendable {
        case checkIn = "check-in"
        case undo = "undo-check-in"
        case add = "add"
        case remove = "remove"
    }

    /// The meetup when the visitor manages it (its host, a co-host, an admin), as the API's
    /// `requireManager` decides; anything else is `ConsolePageNotFound`.
    func managedMeetup(_ id: Int64, _ visitor: ConsoleVisitor) throws -> Meetup {
        let meetup: Meetup
        do { meetup = try domain.meetups.meetup(id: id) } catch let error as DomainError where error.reason == .meetupNotFound {
            throw ConsolePageNotFound()
        }
        do { try requireManager(of: meetup, visitor.user, to: "manage it") } catch is HTTPError { throw ConsolePageNotFound() }
        return meetup
    }

    func allAttendees(_ meetupID: Int64) throws -> [Attendee] {
        var attendees: [Attendee] = []
        var cursor: String?
        repeat {
            let page = try domain.attendance.attendees(meetupID: meetupID, limit: 500, cursor: cursor)
            attendees += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return attendees
    }

    // MARK: The dashboard

    private func dashboard(_ visitor: ConsoleVisitor, past: Bool) throws -> Response {
        let language = visitor.language
        let word = language.word
        var query = MeetupQuery(scope: past ? .past : .upcoming, limit: 200)
        // Every meetup the visitor manages, private ones and those they co-host included.
        query.includePrivate = true
        if !visitor.isAdmin { query.managerID = visitor.user.userID }
        let meetups = try domain.meetups.list(try domain.meetups.canonical(query)).items
        var main = "<div class=\"heading\"><h1>\(HTMLText.escaped(word(.meetups)))</h1>"
        main += "<div class=\"actions\"><a class=\"button secondary\" href=\"/console/series\">\(HTMLText.escaped(word(.series)))</a>"
        main += "<a class=\"button\" href=\"/console/meetups/new\">\(HTMLText.escaped(word(.newMeetup)))</a></div></div>"
        main += "<nav class=\"tabs\" aria-label=\"\(HTMLText.escaped(word(.meetups)))\"><a href=\"/console\"\(past ? "" : " aria-current=\"page\"")>\(HTMLText.escaped(word(.upcoming)))</a>"
        main += "<a href=\"/console?scope=past\"\(past ? " aria-current=\"page\"" : "")>\(HTMLText.escaped(word(.past)))</a></nav>"
        if meetups.isEmpty {
            main += "<p class=\"empty\">\(HTMLText.escaped(word(.noMeetups)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table class=\"meetups\"><thead><tr><th scope=\"col\">\(HTMLText.escaped(word(.title)))</th>"
            main += "<th scope=\"col\">\(HTMLText.escaped(word(.when)))</th><th scope=\"col\" class=\"number\">\(HTMLText.escaped(word(.going)))</th>"
            main += "<th scope=\"col\" class=\"number\">\(HTMLText.escaped(word(.waitlist)))</th><th scope=\"col\" class=\"number\">\(HTMLText.escaped(word(.checkedIn)))</th></tr></thead><tbody>"
            for meetup in meetups {
                let cancelled = meetup.status == .cancelled ? " <span class=\"tag\">\(HTMLText.escaped(word(.cancelled)))</span>" : ""
                main += "<tr><th scope=\"row\"><a href=\"/console/meetups/\(meetup.id)\">\(HTMLText.escaped(meetup.title))</a>\(cancelled)"
                main += "<span class=\"sub\">\(HTMLText.escaped(meetup.placeName))</span></th>"
                main += "<td>\(HTMLText.escaped(when(meetup, language)))</td>"
                main += "<td class=\"number\">\(meetup.goingCount) / \(meetup.capacity)</td><td class=\"number\">\(meetup.waitlistCount)</td>"
                main += "<td class=\"number\">\(meetup.checkedInCount)</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        return Self.htmlPage(ConsoleDocument.page(title: word(.meetups), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main))
    }

    /// `2026. 11. 29. (일) 오후 7:00` in the meetup's zone, as the visitor's language writes it.
    func when(_ meetup: Meetup, _ language: SharePageLanguage) -> String {
        let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
        return KioskDocument.format(meetup.startsAt, template: "yMMMdEjmm", zone: zone, locale: language.localeIdentifier)
    }

    // MARK: A new meetup, and changing one

    /// The form of a new meetup, or of `editing`'s changes, keeping what was typed.
    private func meetupFormPage(_ visitor: ConsoleVisitor, editing: Meetup? = nil, form: ConsoleForm, error: String?, field: String? = nil,
                                status: HTTPStatus = .ok) -> Response {
        let word = visitor.language.word
        func fieldError(_ name: String) -> String? { field == name ? error : nil }
        let zone = form["time_zone"] ?? presentation.clubZone.zone.identifier
        let title = editing.map { "\(word(.edit)): \($0.title)" } ?? word(.newMeetup)
        let action = editing.map { "/console/meetups/\($0.id)/edit" } ?? "/console/meetups"
        let main = """
        <section class="narrow"><h1>\(HTMLText.escaped(title))</h1>
        <form method="post" action="\(action)" novalidate>
        \(ConsoleDocument.csrfField(visitor.formToken))
        \(ConsoleDocument.errorBox(error))
        \(ConsoleDocument.field(name: "title", label: word(.title), value: form["title"] ?? "", error: fieldError("title")))
        \(ConsoleDocument.field(name: "place_name", label: word(.place), value: form["place_name"] ?? "", error: fieldError("place_name")))
        \(ConsoleDocument.field(name: "starts_at", label: word(.startsAt), value: form["starts_at"] ?? "", type: "datetime-local", error: fieldError("starts_at")))
        \(ConsoleDocument.field(name: "ends_at", label: word(.endsAt), value: form["ends_at"] ?? "", type: "datetime-local", error: fieldError("ends_at")))
        \(ConsoleDocument.field(name: "time_zone", label: word(.timeZone), value: zone, error: fieldError("time_zone")))
        \(ConsoleDocument.field(name: "capacity", label: word(.capacity), value: form["capacity"] ?? "20", type: "number", error: fieldError("capacity"),
                                extra: " min=\"1\" inputmode=\"numeric\""))
        <button type="submit">\(HTMLText.escaped(editing == nil ? word(.create) : word(.save)))</button>
        </form></section>
        """
        return Self.htmlPage(ConsoleDocument.page(title: title, language: visitor.language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main), status: status)
    }

    /// The form of `meetup` as it is now, its times in its zone.
    private func meetupForm(_ meetup: Meetup) -> ConsoleForm {
        let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return ConsoleForm(fields: [("title", meetup.title), ("place_name", meetup.placeName), ("starts_at", formatter.string(from: meetup.startsAt)),
                                    ("ends_at", formatter.string(from: meetup.endsAt)), ("time_zone", meetup.timeZone),
                                    ("capacity", String(meetup.capacity))])
    }

    /// A meetup form's values, or the field at fault and why.
    private struct MeetupFormValues {
        let title: String, placeName: String, startsAt: Date, endsAt: Date, zone: TimeZone, capacity: Int
    }

    private func meetupFormValues(_ form: ConsoleForm) -> Result<MeetupFormValues, MeetupFormProblem> {
        let zoneName = form.trimmed("time_zone").isEmpty ? presentation.clubZone.zone.identifier : form.trimmed("time_zone")
        guard let zone = TimeZone(identifier: zoneName) else {
            return .failure(MeetupFormProblem(field: "time_zone", message: "`\(zoneName)` is not an IANA time zone (e.g. Asia/Seoul)."))
        }
        guard let startsAt = Self.localTime(form.trimmed("starts_at"), zone: zone) else {
            return .failure(MeetupFormProblem(field: "starts_at", message: "The start is a date and time such as 2026-12-05T19:00."))
        }
        guard let endsAt = Self.localTime(form.trimmed("ends_at"), zone: zone) else {
            return .failure(MeetupFormProblem(field: "ends_at", message: "The end is a date and time such as 2026-12-05T21:00."))
        }
        guard let capacity = Int(form.trimmed("capacity")) else {
            return .failure(MeetupFormProblem(field: "capacity", message: "The capacity is a whole number of places, 1 or more."))
        }
        return .success(MeetupFormValues(title: form.trimmed("title"), placeName: form.trimmed("place_name"), startsAt: startsAt,
                                         endsAt: endsAt, zone: zone, capacity: capacity))
    }

    private struct MeetupFormProblem: Error {
        let field: String
        let message: String
    }

    /// Creates (`editing` nil) or changes a meetup from its form, as `POST /v1/meetups` and
    /// `PATCH /v1/meetups/{id}` do.
    private func saveMeetup(_ visitor: ConsoleVisitor, editing: Meetup?, _ form: ConsoleForm) throws -> Response {
        let values: MeetupFormValues
        switch meetupFormValues(form) {
        case let .success(read): values = read
        case let .failure(problem):
            return meetupFormPage(visitor, editing: editing, form: form, error: problem.message, field: problem.field, status: .unprocessableContent)
        }
        do {
            let meetup: Meetup
            if let editing {
                meetup = try domain.meetups.update(id: editing.id, MeetupChanges(
                    title: values.title, placeName: values.placeName, startsAt: values.startsAt, endsAt: values.endsAt,
                    timeZone: values.zone.identifier, capacity: values.capacity), by: visitor.actor)
            } else {
                meetup = try domain.meetups.create(NewMeetup(title: values.title, placeName: values.placeName, startsAt: values.startsAt,
                                                             endsAt: values.endsAt, timeZone: values.zone.identifier, capacity: values.capacity,
                                                             hostID: visitor.user.userID), by: visitor.actor)
            }
            services.notifyWebhookWorkers()
            return Self.seeOther("/console/meetups/\(meetup.id)")
        } catch let error as DomainError where error.reason != .notPermitted {
            let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
            return meetupFormPage(visitor, editing: editing, form: form, error: message, field: error.field, status: status)
        }
    }

    /// `2026-12-05T19:00` (what `datetime-local` sends) or with a space, in `zone`.
    static func localTime(_ text: String, zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    // MARK: The door list

    func doorPage(_ visitor: ConsoleVisitor, _ meetup: Meetup, query: String, notice: String?, error: String?, typedHandle: String,
                  kioskURL: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        let language = visitor.language
        let word = language.word
        let attendees = try allAttendees(meetup.id)
        let e = HTMLText.escaped
        var main = "<div class=\"heading\"><h1>\(e(meetup.title))</h1><div class=\"actions\">"
        if meetup.status == .scheduled { main += "<a class=\"button secondary\" href=\"/console/meetups/\(meetup.id)/edit\">\(e(word(.edit)))</a>" }
        main += "<a class=\"button secondary\" href=\"/console/meetups/\(meetup.id)/cohosts\">\(e(word(.cohosts)))</a>"
        main += "<a class=\"button secondary\" href=\"/console/meetups/\(meetup.id)/rewards\">\(e(word(.rewards)))</a>"
        main += "<a class=\"button secondary\" href=\"/console/meetups/\(meetup.id)/shares\">\(e(word(.shares)))</a>"
        if let seriesID = meetup.seriesID { main += "<a class=\"button secondary\" href=\"/console/series/\(seriesID)\">\(e(word(.series)))</a>" }
        main += "<a class=\"button secondary\" href=\"/console/meetups/\(meetup.id)/attendees.csv\" download>\(e(word(.exportCSV)))</a></div></div>"
        main += "<p class=\"sub\">\(e(meetup.placeName)) · \(e(when(meetup, language)))"
        if meetup.status == .cancelled { main += " · <span class=\"tag\">\(e(word(.cancelled)))</span>" }
        main += "</p>"
        main += "<p class=\"counts\" id=\"counts\" aria-live=\"polite\">\(e(doorCounts(meetup, language)))</p>"
        if let notice { main += "<p class=\"notice\" role=\"status\">\(e(notice))</p>" }
        main += "<p class=\"error\" role=\"alert\" id=\"door-error\"\(error == nil ? " hidden" : "")>\(e(error ?? ""))</p>"
        if let kioskURL, let qr = QRCode(kioskURL) {
            main += "<section class=\"kiosk-link\" aria-labelledby=\"kiosk-heading\"><h2 id=\"kiosk-heading\">\(e(word(.kiosk)))</h2>"
            main += "<p>\(e(word(.kioskHelp)))</p><p><a id=\"kiosk-url\" href=\"\(e(kioskURL))\" target=\"_blank\" rel=\"noopener\">\(e(kioskURL))</a></p>"
            main += "<div class=\"qr\">\(qr.svg(label: word(.kiosk)))</div></section>"
        }
        // Search: the server filters without script; the script filters as one types.
        main += """
        <form class="search" method="get" action="/console/meetups/\(meetup.id)" role="search">
        <label for="q">\(e(word(.search)))</label>
        <input id="q" name="q" type="search" value="\(e(query))" placeholder="\(e(word(.searchHint)))" autocomplete="off" data-filter="door-rows">
        <button type="submit" class="secondary">\(e(word(.search)))</button>
        </form>
        """
        main += "<div class=\"table-wrap\"><table class=\"door\"><caption class=\"visually-hidden\">\(e(word(.doorList)))</caption><thead><tr>"
        main += "<th scope=\"col\">\(e(word(.members)))</th><th scope=\"col\">\(e(word(.status)))</th><th scope=\"col\"><span class=\"visually-hidden\">\(e(word(.act)))</span></th></tr></thead>"
        main += "<tbody id=\"door-rows\">" + doorRows(visitor, meetup, attendees, query: query) + "</tbody></table></div>"
        main += """
        <form class="add" method="post" action="/console/meetups/\(meetup.id)/add" data-inline>
        \(ConsoleDocument.csrfField(visitor.formToken))
        \(ConsoleDocument.field(name: "handle", label: word(.addHint), value: typedHandle, extra: " autocomplete=\"off\""))
        <button type="submit">\(e(word(.add)))</button>
        </form>
        <div class="actions">
        <form method="post" action="/console/meetups/\(meetup.id)/kiosk">\(ConsoleDocument.csrfField(visitor.formToken))<button type="submit" class="secondary">\(e(word(.newKiosk)))</button></form>
        <form method="post" action="/console/meetups/\(meetup.id)/kiosk/off">\(ConsoleDocument.csrfField(visitor.formToken))<button type="submit" class="secondary">\(e(word(.turnOffKiosks)))</button></form>
        """
        if meetup.status == .scheduled {
            main += "<form method=\"post\" action=\"/console/meetups/\(meetup.id)/cancel\">\(ConsoleDocument.csrfField(visitor.formToken))<button type=\"submit\" class=\"danger\">\(e(word(.cancelMeetup)))</button></form>"
        }
        main += "</div>"
        let html = ConsoleDocument.page(title: meetup.title, language: language, clubName: presentation.clubName, viewer: visitor.viewer,
                                        section: .meetups, main: main,
                                        bodyData: [("state", "/console/meetups/\(meetup.id)/door.json"), ("version", doorVersion(meetup, attendees))])
        return Self.htmlPage(html, status: status)
    }

    func doorCounts(_ meetup: Meetup, _ language: SharePageLanguage) -> String {
        let word = language.word
        var text = "\(language.checkedIn(meetup.checkedInCount, of: meetup.goingCount)) · \(word(.going)) \(meetup.goingCount) / \(meetup.capacity) · \(word(.waitlist)) \(meetup.waitlistCount)"
        if let noShows = meetup.noShows { text += " · \(word(.noShows)) \(noShows)" }
        return text
    }

    /// Changes whenever a row or a count would.
    func doorVersion(_ meetup: Meetup, _ attendees: [Attendee]) -> String {
        var text = "\(meetup.status.rawValue)|\(meetup.goingCount)|\(meetup.checkedInCount)|\(meetup.waitlistCount)"
        for attendee in attendees { text += "|\(attendee.attendance.memberID):\(attendee.attendance.status.rawValue):\(attendee.displayName)" }
        return String(ContentDigest.hex(of: Array(text.utf8)).prefix(16))
    }

    /// The rows of the door list; those that do not match `query` are hidden (the script
    /// shows them again as the search changes).
    func doorRows(_ visitor: ConsoleVisitor, _ meetup: Meetup, _ attendees: [Attendee], query: String) -> String {
        let e = HTMLText.escaped
        let word = visitor.language.word
        if attendees.isEmpty { return "<tr><td colspan=\"3\">\(e(word(.noAttendees)))</td></tr>" }
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        // The same hidden field in every row's forms: escaped once for the page.
        let csrf = ConsoleDocument.csrfField(visitor.formToken)
        var html = ""
        html.reserveCapacity(attendees.count * 900)
        for attendee in attendees {
            let member = attendee.attendance.memberID
            let searchText = (attendee.displayName + " " + attendee.handle).lowercased()
            let hidden = !needle.isEmpty && !searchText.contains(needle)
            let status = attendee.attendance.status
            html += "<tr data-search=\"\(e(searchText))\" data-member=\"\(member)\" data-status=\"\(status.rawValue)\"\(hidden ? " hidden" : "")>"
            html += "<th scope=\"row\"><span class=\"name\">\(e(attendee.displayName))</span> <span class=\"handle\">@\(e(attendee.handle))</span></th>"
            var statusText = visitor.language.status(status)
            if let position = attendee.attendance.waitlistPosition, status == .waitlisted { statusText += " #\(position)" }
            if let offer = attendee.attendance.offerExpiresAt {
                let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
                statusText += " · \(visitor.language.word(.waitlistOffers)) ~" + KioskDocument.format(offer, template: "jmm", zone: zone,
                                                                                                  locale: visitor.language.localeIdentifier)
            }
            if meetup.status == .completed && status == .going { statusText = visitor.language.word(.noShows) }
            html += "<td><span class=\"status \(status.rawValue)\">\(e(statusText))</span></td><td class=\"row-actions\">"
            let label = "\(attendee.displayName) (@\(attendee.handle))"
            func button(_ action: DoorAction, _ text: String, _ style: String) -> String {
                "<form method=\"post\" action=\"/console/meetups/\(meetup.id)/\(action.rawValue)\" data-inline>\(csrf)"
                    + "<input type=\"hidden\" name=\"user_id\" value=\"\(member)\"><button type=\"submit\" class=\"\(style)\" aria-label=\"\(e(text)): \(e(label))\">\(e(text))</button></form>"
            }
            switch status {
            case .going: html += button(.checkIn, word(.checkIn), "primary") + button(.remove, word(.remove), "secondary")
            case .checkedIn: html += button(.undo, word(.undo), "secondary")
            case .waitlisted: html += button(.remove, word(.remove), "secondary")
            case .cancelled: break
            }
            html += "</td></tr>"
        }
        return html
    }

    /// What the door list's script asks every few seconds: the counts, and the rows as HTML
    /// made here (so that the page and the script show the same thing).
    private func doorState(_ visitor: ConsoleVisitor, _ meetup: Meetup, error: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        let attendees = try allAttendees(meetup.id)
        var json = JSONOutput()
        json.object { json in
            json.member("version", doorVersion(meetup, attendees))
            json.member("counts", doorCounts(meetup, visitor.language))
            json.member("checked_in", meetup.checkedInCount)
            json.member("going", meetup.goingCount)
            json.member("rows_html", doorRows(visitor, meetup, attendees, query: ""))
            if let error { json.member("error", error) }
        }
        return .json(bytes: json.bytes, status: status, headers: ["Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"])
    }

    private func doorAction(_ action: DoorAction, _ visitor: ConsoleVisitor, _ meetup: Meetup, form: ConsoleForm, wantsJSON: Bool) throws -> Response {
        let handle = form.trimmed("handle")
        do {
            switch action {
            case .checkIn:
                let result = try domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: try Self.memberID(form), proof: .host),
                                                         by: visitor.actor)
                _ = try Self.checkInResponse(.success(result), services: services, presentation: presentation)
            case .undo:
                _ = try domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: try Self.memberID(form), by: visitor.actor)
            case .remove:
                _ = try domain.attendance.leave(meetupID: meetup.id, memberID: try Self.memberID(form), by: visitor.actor)
            case .add:
                let bare = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
                guard !bare.isEmpty else {
                    throw HTTPError(.unprocessableContent, code: "invalid_input", detail: visitor.language.word(.addHint))
                }
                // A handle nobody has and one the host may not see answer alike (user_not_found).
                let member: User
                do { member = try domain.users.user(handle: bare) } catch let error as DomainError where error.reason == .userNotFound {
                    throw HTTPError(.notFound, code: "user_not_found", detail: "No member you can add has the handle @\(bare).")
                }
                do { _ = try domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: visitor.actor) } catch let error as DomainError where error.reason == .userNotFound {
                    throw HTTPError(.notFound, code: "user_not_found", detail: "No member you can add has the handle @\(bare).")
                }
            }
            services.notifyWebhookWorkers()
        } catch {
            let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
            let current = (try? domain.meetups.meetup(id: meetup.id)) ?? meetup
            if wantsJSON { return try doorState(visitor, current, error: message, status: status) }
            return try doorPage(visitor, current, query: "", notice: nil, error: message, typedHandle: handle, status: status)
        }
        let current = try domain.meetups.meetup(id: meetup.id)
        if wantsJSON { return try doorState(visitor, current) }
        return Self.seeOther("/console/meetups/\(meetup.id)")
    }

    /// A check-in from the door list, answered as `POST /v1/meetups/{id}/check-in` is: the
    /// write joins the writer's next group commit while the connection waits suspended, so a
    /// host ticking off a queue at the door holds no HTTP thread. The answer (303 to the list,
    /// its state as JSON for the script, or the page with the refusal) is made on an HTTP thread.
    ///
    /// A meetup that does not exist and one the visitor does not manage answer the page that
    /// does not exist, as every other door-list form does.
    private func deferredCheckIn(meetupID: Int64, memberID: Int64, _ visitor: ConsoleVisitor, wantsJSON: Bool) -> Response {
        let deferred = DeferredResponse()
        domain.checkIns.checkIn(CheckInRequest(meetupID: meetupID, memberID: memberID, proof: .host), by: visitor.actor) { outcome in
            deferred.complete {
                var response: Response
                do {
                    _ = try Self.checkInResponse(outcome, services: services, presentation: presentation)
                    if wantsJSON {
                        response = try doorState(visitor, try domain.meetups.meetup(id: meetupID))
                    } else {
                        response = Self.seeOther("/console/meetups/\(meetupID)")
                    }
                } catch let error as DomainError where error.reason == .meetupNotFound || error.reason == .notPermitted {
                    response = notFoundPage(visitor)
                } catch {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    let current = try domain.meetups.meetup(id: meetupID)
                    response = wantsJSON ? try doorState(visitor, current, error: message, status: status)
                        : try doorPage(visitor, current, query: "", notice: nil, error: message, typedHandle: "", status: status)
                }
                // The placeholder answered now carries no headers of its own: the refreshed cookie goes here.
                if let cookie = visitor.refreshedCookie { response.headers.add(name: "Set-Cookie", value: cookie) }
                return response
            }
        }
        return .deferred(deferred)
    }

    static func memberID(_ form: ConsoleForm) throws -> Int64 {
        guard let id = Int64(form.trimmed("user_id")), id > 0 else {
            throw HTTPError(.unprocessableContent, code: "invalid_input", detail: "This form names no member; reload the door list and try again.")
        }
        return id
    }
}

extension SharePageLanguage {
    /// The locale dates are written in.
    var localeIdentifier: String {
        switch self {
        case .korean: return "ko_KR"
        case .japanese: return "ja_JP"
        case .english: return "en_US"
        }
    }
}
