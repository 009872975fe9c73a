import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// Meetups: list, get, create, update, cancel, attendees and the host's check-in code.
    func registerMeetupRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.listMeetups) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 20, maximum: 200)
            var query = MeetupQuery(scope: try request.query("scope", oneOf: MeetupQuery.Scope.self) ?? .upcoming,
                                    limit: page.limit, cursor: page.cursor)
            if let place = request.query("place"), !place.isEmpty { query.placeName = place }
            query.hostID = try request.query("host_id", as: Int64.self)
            query.includeCancelled = try request.query("include_cancelled", as: Bool.self) ?? true
            query.search = try meetupSearch(request)
            // A host's own list holds their private meetups too, and is theirs alone.
            query.includePrivate = query.hostID != nil && query.hostID == caller.userID
            let preferences = try logbookPreferences(of: caller)
            return try searchingQuery {
                query = try domain.meetups.canonical(query)
                let near = query.search.near
                let render = { (meetups: Page<Meetup>) -> [UInt8] in
                    ListBody(items: meetups.items.map { meetup in
                        var body = meetupBody(meetup)
                        body.preferences = preferences
                        if let near, let location = meetup.location { body.distanceKilometres = near.distanceKilometres(to: location) }
                        return body
                    }, nextCursor: meetups.nextCursor).jsonBytes
                }
                // A member with blocks (made or received) gets their own list, never a shared cached one; so does a host's own.
                if try query.includePrivate || domain.safety.hasBlocks(caller.userID) {
                    query.viewerID = caller.userID
                    return .json(bytes: render(try domain.meetups.list(query, preferences: preferences)))
                }
                if domain.meetups.searchesInMemory(query) {
                    return .json(bytes: try searchPage(domain.meetups.search(query, preferences: preferences), preferences: preferences))
                }
                let key = ResponseCache.Key.meetupList(
                    "\(query.scope.rawValue)|\(query.hostID ?? 0)|\(query.includeCancelled)|\(query.limit)|\(query.cursor ?? "")|\(query.placeName ?? "")|\(query.search.key)|\(preferences.boulderScale.rawValue)|\(preferences.routeScale.rawValue)")
                if let bytes = responseCache.body(for: key) { return .json(bytes: bytes) }
                let generation = responseCache.currentGeneration
                let bytes = render(try domain.meetups.list(query, preferences: preferences))
                responseCache.store(bytes, for: key, readGeneration: generation)
                return .json(bytes: bytes)
            }
        }

        routes.on(Operations.createMeetup) { request, context in
            // Who may create is the domain's rule (`meetups.created_by`); it refuses with not_permitted.
            let caller = context.caller
            let body = try request.decodeJSON(as: CreateMeetupRequest.self)
            guard body.placeName != nil || body.gymID != nil else {
                throw HTTPError(.unprocessableContent, code: "missing_field", detail: "`place_name` is required unless `gym_id` names the gym the meetup is at.",
                                extensions: ["field": "place_name"])
            }
            let preferences = try logbookPreferences(of: caller)
            var new = NewMeetup(
                title: body.title, description: body.description ?? "", placeName: body.placeName ?? "", address: body.address,
                startsAt: body.startsAt, endsAt: body.endsAt,
                timeZone: body.timeZone ?? (body.gymID == nil ? presentation.clubZone.zone.identifier : ""),
                capacity: body.capacity, hostID: body.hostID ?? caller.userID, gymID: body.gymID)
            new.location = try Self.location(latitude: body.latitude, longitude: body.longitude)
            new.discipline = body.discipline
            new.level = try Self.level(min: body.levelMin, max: body.levelMax, scale: body.levelScale, discipline: body.discipline, preferences: preferences)
            new.tags = body.tags ?? []
            new.visibility = body.visibility ?? .public
            // Answered deferred, like check-ins: no HTTP thread waits for the group commit.
            let deferred = DeferredResponse()
            domain.meetups.create(new, recordPast: body.recordPast ?? false, by: caller.actor) { [self] outcome in
                deferred.complete {
                    let meetup = try outcome.get()
                    var body = meetupBody(meetup)
                    body.preferences = preferences
                    return .api(body, status: .created, headers: ["Location": "/v1/meetups/\(meetup.id)"])
                }
            }
            return .deferred(deferred)
        }

        routes.on(Operations.getMeetup) { _, context in
            let caller = context.caller
            let id = try context.id()
            let preferences = try logbookPreferences(of: caller)
            let cacheKey = meetupCacheKey(id, preferences)
            // A cached body is of a public meetup shown to all, but for a member with blocks (made
            // or received) the domain decides whether its host is one of them.
            if let bytes = responseCache.body(for: cacheKey), try !domain.safety.hasBlocks(caller.userID) { return .json(bytes: bytes) }
            let generation = responseCache.currentGeneration
            let meetup = try domain.meetups.meetup(id: id, seenBy: caller.actor)
            var body = meetupBody(meetup)
            body.preferences = preferences
            let bytes = body.jsonBytes
            // A private or hidden meetup's answer depends on who asks: never shared through the cache.
            if meetup.visibility == .public && meetup.hiddenAt == nil { responseCache.store(bytes, for: cacheKey, readGeneration: generation) }
            return .json(bytes: bytes)
        }

        routes.on(Operations.updateMeetup) { request, context in
            let caller = context.caller  // the domain decides: the meetup's host, co-hosts, admins
            let id = try context.id()
            let body = try request.decodeJSON(as: UpdateMeetupRequest.self)
            let preferences = try logbookPreferences(of: caller)
            var changes = MeetupChanges(
                title: body.title, description: body.description, placeName: body.placeName, address: body.address,
                startsAt: body.startsAt, endsAt: body.endsAt, timeZone: body.timeZone, capacity: body.capacity,
                hostID: body.hostID, gymID: body.gymID)
            if body.latitude != nil || body.longitude != nil {
                changes.location = .some(try Self.location(latitude: body.latitude ?? nil, longitude: body.longitude ?? nil))
            }
            changes.discipline = body.discipline
            if body.levelMin != nil || body.levelMax != nil {
                let discipline = try body.discipline ?? domain.meetups.meetup(id: id, seenBy: caller.actor).discipline
                changes.level = .some(try Self.level(min: body.levelMin ?? nil, max: body.levelMax ?? nil, scale: body.levelScale,
                                                     discipline: discipline, preferences: preferences))
            }
            changes.tags = body.tags
            changes.visibility = body.visibility
            let deferred = DeferredResponse()
            domain.meetups.update(id: id, changes, by: caller.actor) { [self] outcome in
                deferred.complete {
                    var body = meetupBody(try outcome.get())
                    body.preferences = preferences
                    return .api(body)
                }
            }
            return .deferred(deferred)
        }

        routes.on(Operations.cancelMeetup) { _, context in
            let caller = context.caller  // the domain decides: the meetup's host, co-hosts, admins
            let id = try context.id()
            let deferred = DeferredResponse()
            domain.meetups.cancel(id: id, by: caller.actor) { [self] outcome in
                deferred.complete { .api(meetupBody(try outcome.get())) }
            }
            return .deferred(deferred)
        }

        routes.on(Operations.listAttendees) { request, context in
            let caller = context.caller
            let id = try context.id()
            let meetup = try domain.meetups.meetup(id: id)
            try requireManager(of: meetup, caller, to: "see its attendees")
            let page = try request.pagination(defaultLimit: 50, maximum: 500)
            let status = try request.query("status", oneOf: AttendanceStatus.self)
            let attendees = try domain.attendance.attendees(meetupID: id, status: status, limit: page.limit, cursor: page.cursor)
            return .api(ListBody(items: attendees.items.map { AttendeeBody(attendee: $0, presentation: presentation) },
                                 nextCursor: attendees.nextCursor))
        }

        routes.on(Operations.meetupAttendeesCSV) { _, context in
            let caller = context.caller
            let id = try context.id()
            let meetup = try domain.meetups.meetup(id: id)
            try requireManager(of: meetup, caller, to: "see its attendees")
            var attendees: [Attendee] = []
            var cursor: String?
            repeat {
                let page = try domain.attendance.attendees(meetupID: id, limit: 500, cursor: cursor)
                attendees += page.items
                cursor = page.nextCursor
            } while cursor != nil
            let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
            return Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "private, no-store",
                                                   "Content-Disposition": "attachment; filename=\"meetup-\(id)-attendees.csv\""],
                            body: ResponseBody(string: AttendeeCSV.text(attendees, zone: zone)))
        }

        routes.on(Operations.checkInCode) { _, context in
            let caller = context.caller  // the domain decides: the meetup's host, co-hosts, admins
            let id = try context.id()
            let code = try domain.meetups.currentCheckInCode(meetupID: id, by: caller.actor)
            return .api(CheckInCodeBody(meetupID: id, code: code, zones: presentation.zones), headers: ["Cache-Control": "no-store"])
        }
    }

    /// Where the response cache keeps a meetup's body as `GET /v1/meetups/{id}` shows it to a
    /// reader who reads grades in `preferences`.
    func meetupCacheKey(_ id: Int64, _ preferences: LogbookPreferences) -> ResponseCache.Key {
        preferences == LogbookPreferences() ? .meetup(id)
            : .meetupList("one|\(id)|\(preferences.boulderScale.rawValue)|\(preferences.routeScale.rawValue)")
    }

    /// A page of a search written as a page of the list: each meetup's body as
    /// `GET /v1/meetups/{id}` shows it, from the response cache (and put there for those it
    /// lacks, read in one query), with its distance from the search's point.
    func searchPage(_ page: Page<MeetupHit>, preferences: LogbookPreferences) throws -> [UInt8] {
        var bodies = responseCache.bodies(for: page.items.map { meetupCacheKey($0.id, preferences) })
        let missing = page.items.indices.filter { bodies[$0] == nil }
        if !missing.isEmpty {
            let generation = responseCache.currentGeneration
            let read = try domain.meetups.meetups(ids: missing.map { page.items[$0].id })
            // The search saw these public and to come an instant ago; one that changed since is left out, never shown.
            for index in missing {
                guard let meetup = read.first(where: { $0.id == page.items[index].id }),
                      meetup.visibility == .public, meetup.hiddenAt == nil, meetup.status != .cancelled else { continue }
                var body = meetupBody(meetup)
                body.preferences = preferences
                let bytes = body.jsonBytes
                responseCache.store(bytes, for: meetupCacheKey(meetup.id, preferences), readGeneration: generation)
                bodies[index] = bytes
            }
        }
        var json = JSONOutput(capacity: bodies.reduce(64) { $0 + ($1?.count ?? 0) + 24 })
        json.object { json in
            json.key("items")
            json.array(page.items.indices) { json, index in
                if let body = bodies[index] { MeetupBody.write(cached: body, distanceKilometres: page.items[index].distanceKilometres, to: &json) }
            }
            json.member("next_cursor", page.nextCursor)
        }
        return json.bytes
    }

    func meetupBody(_ meetup: Meetup) -> MeetupBody {
        MeetupBody(meetup: meetup, window: domain.meetups.checkInWindow(of: meetup), presentation: presentation)
    }

    /// Hosts manage the meetups they host or co-host; admins every meetup.
    /// - Throws: `HTTPError` 403 `not_permitted`, as every 403 is.
    func requireManager(of meetup: Meetup, _ caller: AuthenticatedUser, to action: String) throws {
        // As HostRights: the meetup's own host whatever their role (a member hosts the meetups
        // they create), co-hosts (hosts), admins.
        var manages = caller.role == .admin || caller.userID == meetup.hostID
        if !manages && caller.role == .host { manages = try domain.meetups.isManaged(meetupID: meetup.id, by: caller.actor) }
        guard manages else {
            throw HTTPError(.forbidden, code: RefusalReason.notPermitted.rawValue,
                            detail: "Only meetup \(meetup.id)'s host or co-hosts, or an admin, may \(action).",
                            extensions: ["reason": .string(RefusalReason.notPermitted.rawValue)])
        }
    }
}
