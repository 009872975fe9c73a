import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// Gyms, their problems, and members' ticks, logbooks and summaries.
    func registerLogbookRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        registerGymRoutes(on: routes)
        registerProblemRoutes(on: routes)
        registerTickRoutes(on: routes)
        registerPyramidRoutes(on: routes)
        registerRecapRoute(on: routes)
    }

    private func registerGymRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.listGyms) { request, context in
            let caller = context.caller
            let paging = try request.pagination(defaultLimit: 20, maximum: 100)
            let near = try request.coordinates("near")
            let page = try domain.gyms.list(matching: request.query("q"), near: near, limit: paging.limit, cursor: paging.cursor)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            return .api(ListBody(items: page.items.map { gym in
                GymBody(gym: gym, preferences: preferences, distanceKilometres: near.map { GymService.distanceKilometres(from: $0, to: gym) })
            }, nextCursor: page.nextCursor))
        }

        routes.on(Operations.createGym, allowing: [.admin], to: "add gyms") { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: GymRequest.self)
            let gym = try domain.gyms.create(body.draft, by: caller.actor)
            return .api(GymBody(gym: gym, preferences: try domain.logbook.preferences(memberID: caller.userID)), status: .created)
        }

        routes.on(Operations.getGym) { _, context in
            let caller = context.caller
            let gym = try domain.gyms.gym(id: try context.id())
            return .api(GymBody(gym: gym, preferences: try domain.logbook.preferences(memberID: caller.userID)))
        }

        routes.on(Operations.updateGym) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: GymRequest.self)
            let gym = try domain.gyms.update(id: try context.id(), body.draft, by: caller.actor)
            return .api(GymBody(gym: gym, preferences: try domain.logbook.preferences(memberID: caller.userID)))
        }

        routes.on(Operations.gymRanking) { _, context in
            let caller = context.caller
            let ranking = try domain.logbook.ranking(gymID: try context.id(), viewerID: caller.userID)
            var users: [Int64: User] = [:]
            for entry in ranking.entries { users[entry.userID] = try domain.users.user(id: entry.userID) }
            return .api(GymRankingBody(ranking: ranking, users: users, preferences: try domain.logbook.preferences(memberID: caller.userID)))
        }

        routes.on(Operations.listGymManagers) { _, context in
            let caller = context.caller
            let id = try context.id()
            guard try domain.gyms.isManaged(gymID: id, by: caller.actor) else {
                _ = try domain.gyms.gym(id: id)
                throw HTTPError(.forbidden, code: RefusalReason.notPermitted.rawValue, detail: "Only this gym's managers and admins see its managers.",
                                extensions: ["reason": .string(RefusalReason.notPermitted.rawValue)])
            }
            return try managerList(id)
        }

        routes.on(Operations.addGymManager, allowing: [.admin], to: "name gym managers") { _, context in
            let caller = context.caller
            let id = try context.id()
            _ = try domain.gyms.addManager(gymID: id, userID: try context.id("user_id"), by: caller.actor)
            return try managerList(id)
        }

        routes.on(Operations.removeGymManager, allowing: [.admin], to: "name gym managers") { _, context in
            let caller = context.caller
            let id = try context.id()
            _ = try domain.gyms.removeManager(gymID: id, userID: try context.id("user_id"), by: caller.actor)
            return try managerList(id)
        }
    }

    private func managerList(_ gymID: Int64) throws -> Response {
        let users = try domain.gyms.managers(gymID: gymID).map { try domain.users.user(id: $0) }
        return .api(ListBody(items: users.map(CohostBody.init), nextCursor: nil))
    }

    private func registerProblemRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.listProblems) { request, context in
            let caller = context.caller
            let id = try context.id()
            let paging = try request.pagination(defaultLimit: 50, maximum: 200)
            let page = try domain.problems.list(gymID: id, on: request.query("on"), wall: request.query("wall"), grade: request.query("grade"),
                                                limit: paging.limit, cursor: paging.cursor)
            let gym = try domain.gyms.gym(id: id)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            return .api(ListBody(items: page.items.map { ProblemBody(problem: $0, gym: gym, preferences: preferences) }, nextCursor: page.nextCursor))
        }

        routes.on(Operations.addProblem) { request, context in
            let caller = context.caller
            let id = try context.id()
            let body = try request.decodeJSON(as: ProblemRequest.self)
            let problem = try domain.problems.add(body.problem, gymID: id, by: caller.actor)
            return .api(ProblemBody(problem: problem, gym: try domain.gyms.gym(id: id), preferences: try domain.logbook.preferences(memberID: caller.userID)),
                        status: .created)
        }

        routes.on(Operations.importProblemSet) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: ProblemSetRequest.self)
            do {
                let outcome = try domain.problems.importSet(csv: body.csv, gymID: try context.id(), discipline: body.discipline ?? .boulder,
                                                            expectedRemovalOn: body.expectedRemovalOn, dryRun: body.dryRun ?? false, by: caller.actor)
                return .api(ProblemSetOutcomeBody(outcome: outcome), status: outcome.dryRun || outcome.added == 0 ? .ok : .created)
            } catch let error as ProblemSetError {
                let rows: [JSONValue] = error.rows.map { row in
                    ["line": .int(Int64(row.line)), "field": row.field.map(JSONValue.string) ?? .null, "message": .string(row.message)]
                }
                throw HTTPError(.unprocessableContent, code: RefusalReason.invalidProblemSet.rawValue, detail: error.domainError.message + ".",
                                extensions: ["reason": .string(RefusalReason.invalidProblemSet.rawValue), "field": "csv", "rows": .array(rows)])
            }
        }

        routes.on(Operations.retireWall) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: RetireWallRequest.self)
            let retired = try domain.problems.retireWall(body.wall, gymID: try context.id(), on: body.on, by: caller.actor)
            return .api(RetirementBody(wall: body.wall, retired: retired))
        }
    }

    private func registerTickRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.logTick) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: TickRequest.self)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            switch try domain.logbook.log(body.tick, memberID: caller.userID) {
            case let .created(tick): return .api(TickBody(tick: tick, preferences: preferences), status: .created)
            case let .duplicate(tick): return .api(TickBody(tick: tick, preferences: preferences))
            case let .refused(error): throw error
            }
        }

        routes.on(Operations.logTicks) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: TickBatchRequest.self)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            // Answered deferred, like check-ins: no HTTP thread waits for the group commit.
            let deferred = DeferredResponse()
            domain.logbook.logBatch(body.ticks.map(\.tick), memberID: caller.userID) { outcome in
                deferred.complete {
                    .api(TickBatchBody(clientTickIDs: body.ticks.map(\.clientTickID), outcomes: try outcome.get(), preferences: preferences))
                }
            }
            return .deferred(deferred)
        }

        routes.on(Operations.updateTick) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: UpdateTickRequest.self)
            let tick = try domain.logbook.update(tickID: try context.id(), memberID: caller.userID, style: body.style, attempts: body.attempts,
                                                 note: body.note, stars: body.stars, feltGrade: body.feltGrade, visibility: body.visibility)
            return .api(TickBody(tick: tick, preferences: try domain.logbook.preferences(memberID: caller.userID)))
        }

        routes.on(Operations.deleteTick) { _, context in
            let caller = context.caller
            try domain.logbook.delete(tickID: try context.id(), memberID: caller.userID)
            return Response(status: .noContent)
        }

        routes.on(Operations.myLogbook) { request, context in
            let caller = context.caller
            return try logbook(of: caller.userID, viewer: caller.userID, request)
        }

        routes.on(Operations.memberLogbook) { request, context in
            let caller = context.caller
            return try logbook(of: try context.id(), viewer: caller.userID, request)
        }

        routes.on(Operations.myLogbookSummary) { request, context in
            let caller = context.caller
            return try summary(of: caller.userID, viewer: caller.userID, request)
        }

        routes.on(Operations.memberLogbookSummary) { request, context in
            let caller = context.caller
            return try summary(of: try context.id(), viewer: caller.userID, request)
        }

        routes.on(Operations.myLogbookCSV) { _, context in
            let caller = context.caller
            var ticks: [Tick] = []
            var cursor: String?
            repeat {
                let page = try domain.logbook.logbook(memberID: caller.userID, viewerID: caller.userID, filter: TickFilter(), limit: 200, cursor: cursor)
                ticks += page.items
                cursor = page.nextCursor
            } while cursor != nil
            return Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "private, no-store",
                                                   "Content-Disposition": "attachment; filename=\"belay-logbook.csv\""],
                            body: ResponseBody(string: TickCSV.text(ticks, preferences: try domain.logbook.preferences(memberID: caller.userID))))
        }

        routes.on(Operations.importLogbook) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: TickImportRequest.self)
            do {
                let outcome = try domain.logbook.importTicks(csv: body.csv, memberID: caller.userID, dryRun: body.dryRun ?? false)
                return .api(TickImportOutcomeBody(outcome: outcome), status: outcome.dryRun || outcome.added == 0 ? .ok : .created)
            } catch let error as TickImportError {
                let rows: [JSONValue] = error.rows.map { row in
                    ["line": .int(Int64(row.line)), "field": row.field.map(JSONValue.string) ?? .null, "message": .string(row.message)]
                }
                throw HTTPError(.unprocessableContent, code: RefusalReason.invalidImport.rawValue,
                                detail: "The file has \(error.rows.count) row\(error.rows.count == 1 ? "" : "s") that cannot be logged and nothing was imported; fix them and send the whole file again.",
                                extensions: ["reason": .string(RefusalReason.invalidImport.rawValue), "field": "csv",
                                             "format": error.format.map(JSONValue.string) ?? .null, "rows": .array(rows)])
            }
        }

        routes.on(Operations.logbookPreferences) { _, context in
            let caller = context.caller
            return .api(LogbookPreferencesBody(preferences: try domain.logbook.preferences(memberID: caller.userID)))
        }

        routes.on(Operations.setLogbookPreferences) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: LogbookPreferencesRequest.self)
            let current = try domain.logbook.preferences(memberID: caller.userID)
            let saved = try domain.logbook.setPreferences(LogbookPreferences(boulderScale: body.boulderScale, routeScale: body.routeScale,
                                                                            defaultVisibility: body.defaultVisibility,
                                                                            inRankings: body.inRankings ?? current.inRankings), memberID: caller.userID)
            return .api(LogbookPreferencesBody(preferences: saved))
        }

        routes.on(Operations.meetupTicks) { _, context in
            let caller = context.caller
            let ticks = try domain.logbook.meetupTicks(meetupID: try context.id(), seenBy: caller.actor)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            return .api(ListBody(items: ticks.map { TickBody(tick: $0, preferences: preferences) }, nextCursor: nil))
        }
    }

    private func logbook(of memberID: Int64, viewer: Int64, _ request: Request) throws -> Response {
        let paging = try request.pagination(defaultLimit: 50, maximum: 200)
        var filter = TickFilter(gymID: try request.query("gym_id", as: Int64.self), meetupID: try request.query("meetup_id", as: Int64.self),
                                discipline: try request.query("discipline", oneOf: Discipline.self),
                                style: try request.query("style", oneOf: TickStyle.self),
                                from: try request.day("from"), to: try request.day("to"))
        let low = try request.grade("grade_min"), high = try request.grade("grade_max")
        if let low, let high, low.axis != high.axis {
            throw HTTPError.badRequest(code: "invalid_query_parameter", detail: "Query parameters `grade_min` and `grade_max` must be grades of one axis (both boulder grades or both route grades).",
                                       extensions: ["parameter": "grade_max", "expected": "a grade of the same axis as grade_min"])
        }
        if let axis = (low ?? high)?.axis {
            filter.grades = GradeRange(axis: axis, lowest: low?.lowest ?? 0, highest: high?.highest ?? GradeTable.maximumScore)
        }
        let page = try domain.logbook.logbook(memberID: memberID, viewerID: viewer, filter: filter, limit: paging.limit, cursor: paging.cursor)
        let preferences = try domain.logbook.preferences(memberID: viewer)
        return .api(ListBody(items: page.items.map { TickBody(tick: $0, preferences: preferences) }, nextCursor: page.nextCursor))
    }

    /// `period`, or `from` and `to`, as the days a summary covers.
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` for a wrong value or both forms at once.
    func summaryPeriod(_ request: Request) throws -> (from: String?, to: String?) {
        var from = try request.day("from"), to = try request.day("to")
        if let period = try request.query("period", oneOf: SummaryPeriod.self) {
            guard from == nil, to == nil else {
                throw HTTPError.badRequest(code: "invalid_query_parameter", detail: "Give either `period` or `from`/`to`, not both.",
                                           extensions: ["parameter": "period", "expected": "period alone, or from and to"])
            }
            let today = CalendarDay(domain.clock.now(), in: domain.settings.clubTimeZone)
            to = today.description
            from = period.start(endingOn: today)?.description
        }
        return (from, to)
    }

    private func summary(of memberID: Int64, viewer: Int64, _ request: Request) throws -> Response {
        let (from, to) = try summaryPeriod(request)
        let summary = try domain.logbook.summary(memberID: memberID, viewerID: viewer, from: from, to: to)
        return .api(LogbookSummaryBody(summary: summary, preferences: try domain.logbook.preferences(memberID: viewer)))
    }
}

/// The `period` of a logbook summary, ending today in the club's zone.
enum SummaryPeriod: String, CaseIterable {
    case week, month, year, all

    func start(endingOn today: CalendarDay) -> CalendarDay? {
        switch self {
        case .week: return today.adding(days: -6)
        case .month: return today.adding(days: -29)
        case .year: return today.adding(days: -364)
        case .all: return nil
        }
    }
}

/// How many problems retiring a wall took down.
struct RetirementBody: JSONRepresentable {
    let wall: String
    let retired: Int

    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("wall", wall)
            json.member("retired", retired)
        }
    }
}

/// What importing a set file did.
struct ProblemSetOutcomeBody: JSONRepresentable {
    let outcome: ProblemSetOutcome

    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("rows", outcome.rows)
            json.member("added", outcome.added)
            json.member("unchanged", outcome.unchanged)
            json.member("dry_run", outcome.dryRun)
        }
    }
}

extension Request {
    /// `LAT,LON` in degrees.
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` naming the parameter.
    func coordinates(_ name: String) throws -> (latitude: Double, longitude: Double)? {
        guard let text = query(name) else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `\(name)` must be a latitude and longitude in degrees, like 37.4979,127.0276; got `\(text.prefix(80))`.",
                                       extensions: ["parameter": .string(name), "expected": "LAT,LON"])
        }
        return (latitude, longitude)
    }

    /// A day, `YYYY-MM-DD`.
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` naming the parameter.
    func day(_ name: String) throws -> String? {
        guard let text = query(name) else { return nil }
        guard CalendarDay(text) != nil else {
            throw HTTPError.badRequest(code: "invalid_query_parameter", detail: "Query parameter `\(name)` must be a day, YYYY-MM-DD; got `\(text.prefix(80))`.",
                                       extensions: ["parameter": .string(name), "expected": "YYYY-MM-DD"])
        }
        return text
    }

    /// A grade of any scale Belay knows (`V5`, `6c`, `5.11a`).
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` naming the parameter.
    func grade(_ name: String) throws -> GradeRange? {
        guard let text = query(name) else { return nil }
        guard let range = GradeScale.allCases.lazy.compactMap({ GradeTable.range(of: text, in: $0) }).first else {
            throw HTTPError.badRequest(code: "invalid_query_parameter", detail: "Query parameter `\(name)` must be a grade such as V5, 6c or 5.11a; got `\(text.prefix(80))`.",
                                       extensions: ["parameter": .string(name), "expected": "a grade"])
        }
        return range
    }
}
