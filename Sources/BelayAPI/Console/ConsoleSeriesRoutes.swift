import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// A host's recurring series: the list, a new weekly series (a weekday, a time, a number of
    /// weeks, at a gym or a place) and one series' meetups with cancelling the rest of it, through
    /// `MeetupService.createSeries` and `cancelFollowing` as `POST /v1/meetups/series` does.
    func registerConsoleSeriesRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleSeriesList) { request, _ in
            try consolePage(request) { visitor, _ in try seriesListPage(visitor) }
        }
        router.on(Operations.consoleNewSeries) { request, _ in
            try consolePage(request) { visitor, _ in try seriesFormPage(visitor, form: ConsoleForm(), problem: nil) }
        }
        router.on(Operations.consoleCreateSeries) { request, _ in
            try consolePage(request) { visitor, form in try createSeries(visitor, form) }
        }
        router.on(Operations.consoleSeries) { request, context in
            try consolePage(request) { visitor, _ in
                let first = try seriesFirstMeetup(try context.id(), visitor)
                return try seriesPage(visitor, first, cancelled: request.query("cancelled").flatMap { Int($0) }, error: nil, chosen: nil)
            }
        }
        router.on(Operations.consoleCancelRestOfSeries) { request, context in
            try consolePage(request) { visitor, form in
                let first = try seriesFirstMeetup(try context.id(), visitor)
                return try cancelRestOfSeries(visitor, first, form)
            }
        }
    }

    /// The first meetup of the series `id` when the visitor manages it; anything else (no such
    /// series, a meetup that is not a series' first, one they do not manage) is not found.
    private func seriesFirstMeetup(_ id: Int64, _ visitor: ConsoleVisitor) throws -> Meetup {
        let first = try managedMeetup(id, visitor)
        guard first.seriesID == first.id else { throw ConsolePageNotFound() }
        return first
    }

    // MARK: The list

    private func seriesListPage(_ visitor: ConsoleVisitor) throws -> Response {
        let language = visitor.language
        let word = language.word
        let e = HTMLText.escaped
        let series = try domain.meetups.series(managerID: visitor.isAdmin ? nil : visitor.user.userID)
        var main = "<div class=\"heading\"><h1>\(e(word(.series)))</h1>"
        main += "<a class=\"button\" href=\"/console/series/new\">\(e(word(.newSeries)))</a></div>"
        if series.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noSeries)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table class=\"series\"><thead><tr><th scope=\"col\">\(e(word(.title)))</th>"
            main += "<th scope=\"col\">\(e(word(.schedule)))</th><th scope=\"col\">\(e(word(.nextMeetup)))</th>"
            main += "<th scope=\"col\" class=\"number\">\(e(word(.left)))</th><th scope=\"col\" class=\"number\">\(e(word(.cancelled)))</th></tr></thead><tbody>"
            for item in series {
                let zone = TimeZone(identifier: item.timeZone) ?? presentation.clubZone.zone
                main += "<tr><th scope=\"row\"><a href=\"/console/series/\(item.seriesID)\">\(e(item.title))</a>"
                main += "<span class=\"sub\">\(e(item.placeName))</span></th>"
                main += "<td>\(e(weeklySchedule(item.firstStartsAt, zone: zone, language)))<span class=\"sub\">"
                main += "\(e(KioskDocument.format(item.firstStartsAt, template: "yMMMd", zone: zone, locale: language.localeIdentifier))) – "
                main += "\(e(KioskDocument.format(item.lastStartsAt, template: "yMMMd", zone: zone, locale: language.localeIdentifier)))</span></td>"
                main += "<td>\(e(item.nextStartsAt.map { KioskDocument.format($0, template: "MMMdE", zone: zone, locale: language.localeIdentifier) } ?? "–"))</td>"
                main += "<td class=\"number\">\(item.scheduled) / \(item.meetups)</td><td class=\"number\">\(item.cancelled)</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        return Self.htmlPage(ConsoleDocument.page(title: word(.series), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main))
    }

    /// `매주 화요일 19:00`: the weekday and local time of `instant` in `zone`.
    private func weeklySchedule(_ instant: Date, zone: TimeZone, _ language: SharePageLanguage) -> String {
        let weekday = KioskDocument.format(instant, template: "EEEE", zone: zone, locale: language.localeIdentifier)
        let time = KioskDocument.format(instant, template: "jmm", zone: zone, locale: language.localeIdentifier)
        return language.weekly(weekday: weekday, time: time)
    }

    // MARK: A new series

    /// A field of the series form and what is wrong with it.
    private struct SeriesFormProblem: Error {
        let field: String
        let message: String
    }

    private func seriesFormPage(_ visitor: ConsoleVisitor, form: ConsoleForm, problem: SeriesFormProblem?,
                                status: HTTPStatus = .ok) throws -> Response {
        let language = visitor.language
        let word = language.word
        let e = HTMLText.escaped
        func fieldError(_ name: String) -> String? { problem?.field == name ? problem?.message : nil }
        let gyms = try domain.gyms.list(matching: nil, near: nil, limit: 100, cursor: nil).items
        let chosenGym = form["gym_id"] ?? ""
        let chosenWeekday = form["weekday"] ?? "2"
        var main = "<section class=\"narrow\"><h1>\(e(word(.newSeries)))</h1><p>\(e(word(.seriesHelp)))</p>"
        main += "<form method=\"post\" action=\"/console/series\" novalidate>"
        main += ConsoleDocument.csrfField(visitor.formToken)
        main += ConsoleDocument.errorBox(problem?.message)
        main += ConsoleDocument.field(name: "title", label: word(.title), value: form["title"] ?? "", error: fieldError("title"))
        if !gyms.isEmpty {
            main += "<div class=\"field\"><label for=\"gym_id\">\(e(word(.gym)))</label>"
            if let message = fieldError("gym_id") { main += "<span class=\"field-error\" id=\"gym_id-error\">\(e(message))</span>" }
            main += "<select id=\"gym_id\" name=\"gym_id\"\(fieldError("gym_id") == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"gym_id-error\"")>"
            main += "<option value=\"\"\(chosenGym.isEmpty ? " selected" : "")>\(e(word(.noGym)))</option>"
            for gym in gyms {
                let name = gym.localizedNames[language.rawValue] ?? gym.name
                main += "<option value=\"\(gym.id)\"\(chosenGym == String(gym.id) ? " selected" : "")>\(e(name))</option>"
            }
            main += "</select></div>"
        }
        main += ConsoleDocument.field(name: "place_name", label: word(.place), value: form["place_name"] ?? "",
                                      hint: gyms.isEmpty ? nil : word(.placeHint), error: fieldError("place_name"), required: gyms.isEmpty)
        main += "<div class=\"field\"><label for=\"weekday\">\(e(word(.weekday)))</label>"
        if let message = fieldError("weekday") { main += "<span class=\"field-error\" id=\"weekday-error\">\(e(message))</span>" }
        main += "<select id=\"weekday\" name=\"weekday\">"
        let symbols = Self.weekdaySymbols(language)
        // Monday first (ISO 8601); the form's value is Calendar's weekday (1 is Sunday).
        for weekday in [2, 3, 4, 5, 6, 7, 1] {
            main += "<option value=\"\(weekday)\"\(chosenWeekday == String(weekday) ? " selected" : "")>\(e(symbols[weekday - 1]))</option>"
        }
        main += "</select></div>"
        main += ConsoleDocument.field(name: "start_time", label: word(.startTime), value: form["start_time"] ?? "19:00", type: "time",
                                      error: fieldError("start_time"))
        main += ConsoleDocument.field(name: "end_time", label: word(.endTime), value: form["end_time"] ?? "21:00", type: "time",
                                      error: fieldError("end_time"))
        main += ConsoleDocument.field(name: "weeks", label: word(.weeks), value: form["weeks"] ?? "8", type: "number", hint: word(.weeksHint),
                                      error: fieldError("weeks"), extra: " min=\"2\" max=\"\(MeetupService.maxSeriesLength)\" inputmode=\"numeric\"")
        main += ConsoleDocument.field(name: "time_zone", label: word(.timeZone), value: form["time_zone"] ?? presentation.clubZone.zone.identifier,
                                      error: fieldError("time_zone"))
        main += ConsoleDocument.field(name: "capacity", label: word(.capacity), value: form["capacity"] ?? "20", type: "number",
                                      error: fieldError("capacity"), extra: " min=\"1\" inputmode=\"numeric\"")
        main += "<button type=\"submit\">\(e(word(.create)))</button></form></section>"
        return Self.htmlPage(ConsoleDocument.page(title: word(.newSeries), language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main), status: status)
    }

    /// The weekday names in the visitor's language, Sunday first (as `Calendar` counts).
    private static func weekdaySymbols(_ language: SharePageLanguage) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: language.localeIdentifier)
        return formatter.standaloneWeekdaySymbols
    }

    /// What the form asks for, as `createSeries` takes it: the first meetup (the next chosen
    /// weekday at the start time, in the zone) and the last week's start as `until`.
    private struct SeriesFormValues {
        let meetup: NewMeetup
        let until: Date
    }

    private func seriesFormValues(_ form: ConsoleForm, _ visitor: ConsoleVisitor) -> Result<SeriesFormValues, SeriesFormProblem> {
        let word = visitor.language.word
        let zoneName = form.trimmed("time_zone").isEmpty ? presentation.clubZone.zone.identifier : form.trimmed("time_zone")
        guard let zone = TimeZone(identifier: zoneName) else {
            return .failure(SeriesFormProblem(field: "time_zone", message: "`\(zoneName)` is not an IANA time zone (e.g. Asia/Seoul)."))
        }
        guard let weekday = Int(form.trimmed("weekday")), (1...7).contains(weekday) else {
            return .failure(SeriesFormProblem(field: "weekday", message: word(.weekday)))
        }
        guard let start = Self.clockTime(form.trimmed("start_time")) else {
            return .failure(SeriesFormProblem(field: "start_time", message: word(.timeInvalid)))
        }
        guard let end = Self.clockTime(form.trimmed("end_time")) else {
            return .failure(SeriesFormProblem(field: "end_time", message: word(.timeInvalid)))
        }
        guard let weeks = Int(form.trimmed("weeks")), (2...MeetupService.maxSeriesLength).contains(weeks) else {
            return .failure(SeriesFormProblem(field: "weeks", message: word(.weeksInvalid)))
        }
        guard let capacity = Int(form.trimmed("capacity")) else {
            return .failure(SeriesFormProblem(field: "capacity", message: "The capacity is a whole number of places, 1 or more."))
        }
        var gymID: Int64?
        if !form.trimmed("gym_id").isEmpty {
            guard let id = Int64(form.trimmed("gym_id")) else { return .failure(SeriesFormProblem(field: "gym_id", message: word(.gym))) }
            gymID = id
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = domain.clock.now()
        let today = calendar.startOfDay(for: now)
        // The next chosen weekday whose start is still to come (today when it is that day and not yet that time).
        var first: (start: Date, end: Date)?
        for offset in 0...7 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today), calendar.component(.weekday, from: day) == weekday,
                  let startsAt = calendar.date(bySettingHour: start.hour, minute: start.minute, second: 0, of: day),
                  let endsAt = calendar.date(bySettingHour: end.hour, minute: end.minute, second: 0, of: day), startsAt > now else { continue }
            first = (startsAt, endsAt)
            break
        }
        guard let first, let lastStart = calendar.date(byAdding: .day, value: 7 * (weeks - 1), to: first.start) else {
            return .failure(SeriesFormProblem(field: "weekday", message: word(.weekday)))
        }
        let meetup = NewMeetup(title: form.trimmed("title"), placeName: form.trimmed("place_name"), startsAt: first.start, endsAt: first.end,
                               timeZone: zone.identifier, capacity: capacity, hostID: visitor.user.userID, gymID: gymID)
        // A minute past the last start: that week's meetup is the last one made.
        return .success(SeriesFormValues(meetup: meetup, until: lastStart.addingTimeInterval(60)))
    }

    /// `19:00` (what `type=time` sends) or `7:05`: the hour and minute.
    private static func clockTime(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute), parts[1].count == 2 else { return nil }
        return (hour, minute)
    }

    private func createSeries(_ visitor: ConsoleVisitor, _ form: ConsoleForm) throws -> Response {
        let values: SeriesFormValues
        switch seriesFormValues(form, visitor) {
        case let .success(read): values = read
        case let .failure(problem): return try seriesFormPage(visitor, form: form, problem: problem, status: .unprocessableContent)
        }
        do {
            let series = try domain.meetups.createSeries(values.meetup, repeat: .weekly, until: values.until, by: visitor.actor)
            return Self.seeOther("/console/series/\(series[0].id)")
        } catch let error as DomainError where error.reason != .notPermitted {
            let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
            // The domain names the API's fields; the form's are these.
            let field: String
            switch error.field {
            case "starts_at": field = "start_time"
            case "ends_at": field = "end_time"
            case "until": field = "weeks"
            case let other?: field = other
            case nil: field = ""
            }
            return try seriesFormPage(visitor, form: form, problem: SeriesFormProblem(field: field, message: message), status: status)
        }
    }

    // MARK: One series

    private func seriesPage(_ visitor: ConsoleVisitor, _ first: Meetup, cancelled: Int?, error: String?, chosen: String?,
                            status: HTTPStatus = .ok) throws -> Response {
        let language = visitor.language
        let word = language.word
        let e = HTMLText.escaped
        let meetups = try domain.meetups.seriesMeetups(seriesID: first.id)
        let zone = TimeZone(identifier: first.timeZone) ?? presentation.clubZone.zone
        let now = domain.clock.now()
        var main = "<div class=\"heading\"><h1>\(e(first.title))</h1><div class=\"actions\">"
        main += "<a class=\"button secondary\" href=\"/console/series\">\(e(word(.series)))</a></div></div>"
        main += "<p class=\"sub\">\(e(first.placeName)) · \(e(weeklySchedule(first.startsAt, zone: zone, language)))</p>"
        if let cancelled { main += "<p class=\"notice\" role=\"status\" id=\"series-notice\">\(e(word(.seriesCancelled))) \(cancelled)</p>" }
        main += "<div class=\"table-wrap\"><table class=\"meetups\"><thead><tr><th scope=\"col\">\(e(word(.when)))</th>"
        main += "<th scope=\"col\">\(e(word(.status)))</th><th scope=\"col\" class=\"number\">\(e(word(.going)))</th>"
        main += "<th scope=\"col\" class=\"number\">\(e(word(.checkedIn)))</th></tr></thead><tbody>"
        for meetup in meetups {
            main += "<tr><th scope=\"row\"><a href=\"/console/meetups/\(meetup.id)\">\(e(when(meetup, language)))</a></th>"
            main += "<td>\(e(meetupStatus(meetup, language)))</td>"
            main += "<td class=\"number\">\(meetup.goingCount) / \(meetup.capacity)</td><td class=\"number\">\(meetup.checkedInCount)</td></tr>"
        }
        main += "</tbody></table></div>"
        let open = meetups.filter { $0.status == .scheduled && $0.startsAt > now }
        main += "<section class=\"cancel-rest\" aria-labelledby=\"cancel-rest-heading\"><h2 id=\"cancel-rest-heading\">\(e(word(.cancelRestHeading)))</h2>"
        if open.isEmpty && error == nil {
            main += "<p class=\"empty\">\(e(word(.nothingLeft)))</p>"
        } else {
            main += "<p>\(e(word(.cancelRestHelp)))</p>"
            main += "<form method=\"post\" action=\"/console/series/\(first.id)/cancel-rest\" novalidate>"
            main += ConsoleDocument.csrfField(visitor.formToken)
            main += "<div class=\"field\"><label for=\"from\">\(e(word(.cancelFrom)))</label>"
            if let error { main += "<span class=\"field-error\" id=\"from-error\" role=\"alert\">\(e(error))</span>" }
            main += "<select id=\"from\" name=\"from\"\(error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"from-error\"")>"
            let selected = chosen ?? open.first.map { String($0.id) } ?? ""
            for meetup in open {
                main += "<option value=\"\(meetup.id)\"\(selected == String(meetup.id) ? " selected" : "")>\(e(when(meetup, language)))</option>"
            }
            main += "</select></div><button type=\"submit\" class=\"danger\">\(e(word(.cancelRest)))</button></form>"
        }
        main += "</section>"
        return Self.htmlPage(ConsoleDocument.page(title: first.title, language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main), status: status)
    }

    private func meetupStatus(_ meetup: Meetup, _ language: SharePageLanguage) -> String {
        switch meetup.status {
        case .scheduled: return language.word(.scheduled)
        case .cancelled: return language.word(.cancelled)
        case .completed: return language.word(.completed)
        }
    }

    private func cancelRestOfSeries(_ visitor: ConsoleVisitor, _ first: Meetup, _ form: ConsoleForm) throws -> Response {
        let chosen = form.trimmed("from")
        guard let id = Int64(chosen), let from = try domain.meetups.seriesMeetups(seriesID: first.id).first(where: { $0.id == id }) else {
            return try seriesPage(visitor, first, cancelled: nil, error: visitor.language.word(.notInSeries), chosen: chosen,
                                  status: .unprocessableContent)
        }
        do {
            let cancelled = try domain.meetups.cancelFollowing(id: from.id, by: visitor.actor)
            return Self.seeOther("/console/series/\(first.id)?cancelled=\(cancelled.count)")
        } catch let error as DomainError where error.reason != .notPermitted && error.reason != .meetupNotFound {
            let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
            return try seriesPage(visitor, first, cancelled: nil, error: message, chosen: chosen, status: status)
        }
    }
}
