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
    func registerConsoleMeetupRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleMeetups) { request, _ in
            try consolePage(request) { visitor, _ in
                try cachedPage(visitor, request) { try dashboard(visitor, past: request.query("scope") == "past", cursor: request.query("cursor")) }
            }
        }
        router.on(Operations.consoleNewMeetupPage) { request, _ in
            try consolePage(request) { visitor, _ in meetupFormPage(visitor, form: ConsoleForm(), error: nil) }
        }
        router.on(Operations.consoleCreateMeetup) { request, _ in
            try consolePage(request) { visitor, form in try saveMeetup(visitor, editing: nil, form) }
        }
        router.on(Operations.consoleEditMeetupPage) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                return meetupFormPage(visitor, editing: meetup, form: meetupForm(meetup), error: nil)
            }
        }
        router.on(Operations.consoleEditMeetup) { request, context in
            try consolePage(request) { visitor, form in try saveMeetup(visitor, editing: try managedMeetup(try context.id(), visitor), form) }
        }
        router.on(Operations.consoleDoorList) { request, context in
            try consolePage(request) { visitor, _ in
                try cachedPage(visitor, request) {
                    let meetup = try managedMeetup(try context.id(), visitor, cached: true)
                    return try doorPage(visitor, meetup, view: DoorView(request), notice: nil, error: nil, typedHandle: "")
                }
            }
        }
        router.on(Operations.consoleDoorState) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor, cached: true)
                return try doorState(visitor, meetup, view: DoorView(request))
            }
        }
        router.on(Operations.consoleAttendeesCSV) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
                return Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "private, no-store",
                                                       "Content-Disposition": "attachment; filename=\"meetup-\(meetup.id)-attendees.csv\""],
                                body: ResponseBody(string: AttendeeCSV.text(try allAttendees(meetup.id), zone: zone)))
            }
        }
        for action in DoorAction.allCases {
            router.on(action.operation) { request, context in
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
        router.on(Operations.consoleKioskLink) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                do {
                    let link = try domain.kiosks.createLink(meetupID: meetup.id, by: visitor.actor)
                    return try doorPage(visitor, meetup, notice: nil, error: nil, typedHandle: "",
                                        kioskURL: KioskLinkBody(link: link, presentation: presentation).url)
                } catch let error as DomainError {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try doorPage(visitor, meetup, notice: nil, error: message, typedHandle: "", status: status)
                }
            }
        }
        router.on(Operations.consoleKioskOff) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                _ = try domain.kiosks.revokeLinks(meetupID: meetup.id, by: visitor.actor)
                return try doorPage(visitor, meetup, notice: visitor.language.word(.kiosksTurnedOff), error: nil, typedHandle: "")
            }
        }
        router.on(Operations.consoleCancelMeetup) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                do {
                    _ = try domain.meetups.cancel(id: meetup.id, by: visitor.actor)
                    return Self.seeOther("/console/meetups/\(meetup.id)")
                } catch let error as DomainError {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try doorPage(visitor, meetup, notice: nil, error: message, typedHandle: "", status: status)
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

        /// The operation of the action's form, posted to `/console/meetups/{id}/<raw value>`.
        var operation: OpenAPIOperation {
            switch self {
            case .checkIn: Operations.consoleCheckIn
            case .undo: Operations.consoleUndoCheckIn
            case .add: Operations.consoleAddAttendee
            case .remove: Operations.consoleRemoveAttendee
            }
        }
    }

    /// The meetup when the visitor manages it (its host, a co-host, an admin), as the API's
    /// `requireManager` decides; anything else is `ConsolePageNotFound`. A page that only shows
    /// the meetup passes `cached`: it is then read once a moment (the response cache's rule).
    func managedMeetup(_ id: Int64, _ visitor: ConsoleVisitor, cached: Bool) throws -> Meetup {
        guard cached else { return try managedMeetup(id, visitor) }
        return try responseCache.value(for: .consoleManagedMeetup(meetup: id, member: visitor.user.userID), cost: { _ in 1_024 }) {
            try managedMeetup(id, visitor)
        }
    }

    /// The meetup, read now, when the visitor manages it; anything else is `ConsolePageNotFound`.
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

    /// Meetups a dashboard page lists at most; the next ones are a link away.
    static let dashboardPageSize = 50

    /// The visitor's meetups (every meetup for an admin), 50 a page in start order, with going,
    /// capacity, waitlist and checked in. The table is made once a moment for each manager, tab
    /// and page (the response cache's rule). A cursor that is not one of this list's shows the first page.
    private func dashboard(_ visitor: ConsoleVisitor, past: Bool, cursor: String?) throws -> Response {
        let language = visitor.language
        let word = language.word
        var query = MeetupQuery(scope: past ? .past : .upcoming, limit: Self.dashboardPageSize, cursor: cursor)
        // Every meetup the visitor manages, private ones and those they co-host included.
        query.includePrivate = true
        if !visitor.isAdmin { query.managerID = visitor.user.userID }
        if (try? domain.meetups.canonical(query)) == nil { query.cursor = nil }
        let key = ResponseCache.Key.consoleDashboard(manager: visitor.isAdmin ? 0 : visitor.user.userID, past: past, cursor: query.cursor ?? "",
                                                     language: language.rawValue)
        let table = try responseCache.value(for: key, cost: { $0.utf8.count }) {
            try dashboardTable(domain.meetups.list(try domain.meetups.canonical(query)), past: past, language)
        }
        var main = "<div class=\"heading\"><h1>\(HTMLText.escaped(word(.meetups)))</h1>"
        main += "<div class=\"actions\"><a class=\"button secondary\" href=\"/console/series\">\(HTMLText.escaped(word(.series)))</a>"
        main += "<a class=\"button\" href=\"/console/meetups/new\">\(HTMLText.escaped(word(.newMeetup)))</a></div></div>"
        main += "<nav class=\"tabs\" aria-label=\"\(HTMLText.escaped(word(.meetups)))\"><a href=\"/console\"\(past ? "" : " aria-current=\"page\"")>\(HTMLText.escaped(word(.upcoming)))</a>"
        main += "<a href=\"/console?scope=past\"\(past ? " aria-current=\"page\"" : "")>\(HTMLText.escaped(word(.past)))</a></nav>"
        main += table
        return Self.htmlPage(ConsoleDocument.page(title: word(.meetups), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main))
    }

    /// One page of the dashboard's table, and the link to the next page when there is one.
    private func dashboardTable(_ page: Page<Meetup>, past: Bool, _ language: SharePageLanguage) -> String {
        let word = language.word
        let e = HTMLText.escaped
        guard !page.items.isEmpty else { return "<p class=\"empty\">\(e(word(.noMeetups)))</p>" }
        var html = "<div class=\"table-wrap\"><table class=\"meetups\"><thead><tr><th scope=\"col\">\(e(word(.title)))</th>"
        html += "<th scope=\"col\">\(e(word(.when)))</th><th scope=\"col\" class=\"number\">\(e(word(.going)))</th>"
        html += "<th scope=\"col\" class=\"number\">\(e(word(.waitlist)))</th><th scope=\"col\" class=\"number\">\(e(word(.checkedIn)))</th></tr></thead><tbody>"
        for meetup in page.items {
            let cancelled = meetup.status == .cancelled ? " <span class=\"tag\">\(e(word(.cancelled)))</span>" : ""
            html += "<tr><th scope=\"row\"><a href=\"/console/meetups/\(meetup.id)\">\(e(meetup.title))</a>\(cancelled)"
            html += "<span class=\"sub\">\(e(meetup.placeName))</span></th>"
            html += "<td>\(e(when(meetup, language)))</td>"
            html += "<td class=\"number\">\(meetup.goingCount) / \(meetup.capacity)</td><td class=\"number\">\(meetup.waitlistCount)</td>"
            html += "<td class=\"number\">\(meetup.checkedInCount)</td></tr>"
        }
        html += "</tbody></table></div>"
        if let next = page.nextCursor {
            let scope = past ? "scope=past&" : ""
            let cursor = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next
            html += "<nav class=\"pager\" aria-label=\"\(e(word(.pages)))\"><a rel=\"next\" href=\"/console?\(scope)cursor=\(cursor)\">\(e(word(.nextPage)))</a></nav>"
        }
        return html
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

    /// Which rows of the door list a page shows: those matching `query`, one page of them.
    struct DoorView: Sendable {
        var query = ""
        var page = 1

        init(query: String = "", page: Int = 1) {
            self.query = query
            self.page = page
        }

        /// From `?q=` and `?page=` (a page that is not a positive number is the first).
        init(_ request: Request) {
            query = request.query("q") ?? ""
            page = request.query("page").flatMap { Int($0) }.map { max(1, $0) } ?? 1
        }

        /// The door list's address for `page` of this view.
        func path(_ meetupID: Int64, page: Int) -> String {
            var items: [String] = []
            if !query.isEmpty { items.append("q=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")) }
            if page > 1 { items.append("page=\(page)") }
            return "/console/meetups/\(meetupID)" + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        }
    }

    /// The door list of `meetup` in `language`, made once a moment (the response cache's rule:
    /// any change through this server makes it again at once).
    func doorList(_ meetup: Meetup, _ language: SharePageLanguage) throws -> ConsoleDoorList {
        try responseCache.value(for: .consoleDoorList(meetup: meetup.id, language: language.rawValue), cost: { $0.bytes }) {
            ConsoleDoorList(meetup: meetup, attendees: try allAttendees(meetup.id), language: language,
                            zone: TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone)
        }
    }

    func doorPage(_ visitor: ConsoleVisitor, _ meetup: Meetup, view: DoorView = DoorView(), notice: String?, error: String?, typedHandle: String,
                  kioskURL: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        let language = visitor.language
        let word = language.word
        let list = try doorList(meetup, language)
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
        main += "<p class=\"counts\" id=\"counts\" aria-live=\"polite\">\(e(list.counts))</p>"
        if let notice { main += "<p class=\"notice\" role=\"status\">\(e(notice))</p>" }
        main += "<p class=\"error\" role=\"alert\" id=\"door-error\"\(error == nil ? " hidden" : "")>\(e(error ?? ""))</p>"
        if let kioskURL, let qr = QRCode(kioskURL) {
            main += "<section class=\"kiosk-link\" aria-labelledby=\"kiosk-heading\"><h2 id=\"kiosk-heading\">\(e(word(.kiosk)))</h2>"
            main += "<p>\(e(word(.kioskHelp)))</p><p><a id=\"kiosk-url\" href=\"\(e(kioskURL))\" target=\"_blank\" rel=\"noopener\">\(e(kioskURL))</a></p>"
            main += "<div class=\"qr\">\(qr.svg(label: word(.kiosk)))</div></section>"
        }
        // Search: the server filters without script; the script asks it as one types.
        main += """
        <form class="search" method="get" action="/console/meetups/\(meetup.id)" role="search">
        <label for="q">\(e(word(.search)))</label>
        <input id="q" name="q" type="search" value="\(e(view.query))" placeholder="\(e(word(.searchHint)))" autocomplete="off" data-filter="door-rows">
        <button type="submit" class="secondary">\(e(word(.search)))</button>
        </form>
        """
        // The rows' buttons submit these forms (`form=`), so the rows carry no token of their own.
        let csrf = ConsoleDocument.csrfField(visitor.formToken)
        for action in [DoorAction.checkIn, .undo, .remove] {
            main += "<form id=\"\(ConsoleDoorList.formID(action))\" method=\"post\" action=\"/console/meetups/\(meetup.id)/\(action.rawValue)\" data-inline>\(csrf)</form>"
        }
        let shown = list.view(query: view.query, page: view.page)
        main += "<div class=\"table-wrap\"><table class=\"door\"><caption class=\"visually-hidden\">\(e(word(.doorList)))</caption><thead><tr>"
        main += "<th scope=\"col\">\(e(word(.members)))</th><th scope=\"col\">\(e(word(.status)))</th><th scope=\"col\"><span class=\"visually-hidden\">\(e(word(.act)))</span></th></tr></thead>"
        main += "<tbody id=\"door-rows\">" + doorRows(list, shown.rows, query: view.query, language) + "</tbody></table></div>"
        main += "<nav class=\"pager\" id=\"door-pager\" aria-label=\"\(e(word(.pages)))\">" + doorPager(meetup.id, view, shown, language) + "</nav>"
        main += """
        <form class="add" method="post" action="/console/meetups/\(meetup.id)/add" data-inline>
        \(csrf)
        \(ConsoleDocument.field(name: "handle", label: word(.addHint), value: typedHandle, extra: " autocomplete=\"off\""))
        <button type="submit">\(e(word(.add)))</button>
        </form>
        <div class="actions">
        <form method="post" action="/console/meetups/\(meetup.id)/kiosk">\(csrf)<button type="submit" class="secondary">\(e(word(.newKiosk)))</button></form>
        <form method="post" action="/console/meetups/\(meetup.id)/kiosk/off">\(csrf)<button type="submit" class="secondary">\(e(word(.turnOffKiosks)))</button></form>
        """
        if meetup.status == .scheduled {
            main += "<form method=\"post\" action=\"/console/meetups/\(meetup.id)/cancel\">\(csrf)<button type=\"submit\" class=\"danger\">\(e(word(.cancelMeetup)))</button></form>"
        }
        main += "</div>"
        let html = ConsoleDocument.page(title: meetup.title, language: language, clubName: presentation.clubName, viewer: visitor.viewer,
                                        section: .meetups, main: main,
                                        bodyData: [("state", "/console/meetups/\(meetup.id)/door.json"), ("version", list.version),
                                                   ("query", view.query), ("page", String(shown.page))])
        return Self.htmlPage(html, status: status)
    }

    /// The rows a view shows, or why it shows none.
    private func doorRows(_ list: ConsoleDoorList, _ rows: ArraySlice<ConsoleDoorList.Row>, query: String, _ language: SharePageLanguage) -> String {
        let empty = list.rows.isEmpty || query.trimmingCharacters(in: .whitespaces).isEmpty
            ? list.emptyRow : "<tr><td colspan=\"3\">\(HTMLText.escaped(language.word(.noMatches)))</td></tr>"
        return ConsoleDoorList.html(rows, empty: empty)
    }

    /// `300명 중 51–100 · 이전 · 다음`: where the page is in the list, with links to its neighbours.
    private func doorPager(_ meetupID: Int64, _ view: DoorView, _ shown: (rows: ArraySlice<ConsoleDoorList.Row>, page: Int, pages: Int, matching: Int),
                           _ language: SharePageLanguage) -> String {
        guard shown.pages > 1 else { return "" }
        let e = HTMLText.escaped
        let first = (shown.page - 1) * ConsoleDoorList.pageSize + 1
        var html = "<span>\(e(language.shown(from: first, to: first + shown.rows.count - 1, of: shown.matching)))</span>"
        if shown.page > 1 { html += " <a rel=\"prev\" href=\"\(e(view.path(meetupID, page: shown.page - 1)))\">\(e(language.word(.previousPage)))</a>" }
        if shown.page < shown.pages { html += " <a rel=\"next\" href=\"\(e(view.path(meetupID, page: shown.page + 1)))\">\(e(language.word(.nextPage)))</a>" }
        return html
    }

    /// What the door list's script asks every few seconds and as one types: the counts, and the
    /// rows of the view as HTML made here (so that the page and the script show the same thing).
    private func doorState(_ visitor: ConsoleVisitor, _ meetup: Meetup, view: DoorView = DoorView(), error: String? = nil,
                           status: HTTPStatus = .ok) throws -> Response {
        let list = try doorList(meetup, visitor.language)
        let shown = list.view(query: view.query, page: view.page)
        var json = JSONOutput()
        json.object { json in
            json.member("version", list.version)
            json.member("query", view.query)
            json.member("page", shown.page)
            json.member("counts", list.counts)
            json.member("checked_in", meetup.checkedInCount)
            json.member("going", meetup.goingCount)
            json.member("rows_html", doorRows(list, shown.rows, query: view.query, visitor.language))
            json.member("pager_html", doorPager(meetup.id, view, shown, visitor.language))
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
        } catch {
            let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
            let current = (try? domain.meetups.meetup(id: meetup.id)) ?? meetup
            if wantsJSON { return try doorState(visitor, current, error: message, status: status) }
            return try doorPage(visitor, current, notice: nil, error: message, typedHandle: handle, status: status)
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
                        : try doorPage(visitor, current, notice: nil, error: message, typedHandle: "", status: status)
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
