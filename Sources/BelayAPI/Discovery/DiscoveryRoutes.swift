import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// Finding meetups beside the list: follows, the feed, and publishing a meetup's page.
    func registerDiscoveryRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        for (follow, unfollow, type) in [(Operations.followGym, Operations.unfollowGym, "gym"), (Operations.followHost, Operations.unfollowHost, "host")] {
            routes.on(follow) { _, context in
                let caller = context.caller
                let id = try context.id()
                let follows = try domain.meetups.follow(type == "gym" ? .gym(id) : .host(id), by: caller.actor)
                return .api(ListBody(items: follows.map { FollowBody(follow: $0, presentation: presentation) }, nextCursor: nil),
                            headers: ["Cache-Control": "no-store"])
            }
            routes.on(unfollow) { _, context in
                let caller = context.caller
                let id = try context.id()
                let follows = try domain.meetups.unfollow(type == "gym" ? .gym(id) : .host(id), by: caller.actor)
                return .api(ListBody(items: follows.map { FollowBody(follow: $0, presentation: presentation) }, nextCursor: nil),
                            headers: ["Cache-Control": "no-store"])
            }
        }
        routes.on(Operations.listFollows) { _, context in
            let caller = context.caller
            return .api(ListBody(items: try domain.meetups.follows(of: caller.userID).map { FollowBody(follow: $0, presentation: presentation) },
                                 nextCursor: nil), headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.feed) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 20, maximum: 100)
            let near = try searchingQuery { try request.query("near").map { try GeoPoint(parsing: $0, field: "near") } }
            let preferences = try logbookPreferences(of: caller)
            let feed = try domain.meetups.feed(memberID: caller.userID, near: near, limit: page.limit, cursor: page.cursor)
            return .api(ListBody(items: feed.items.map { item in
                var body = meetupBody(item.meetup)
                body.preferences = preferences
                return FeedItemBody(meetup: body, reason: item.reason)
            }, nextCursor: feed.nextCursor), headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.publishMeetupPage) { request, context in
            let caller = context.caller
            let id = try context.id()
            let body = request.body.isEmpty ? PublishPageRequest() : try request.decodeJSON(as: PublishPageRequest.self)
            let meetup = try domain.meetups.publishPage(meetupID: id, showsHost: body.showHost ?? false, by: caller.actor)
            return .api(meetupBody(meetup))
        }
        routes.on(Operations.unpublishMeetupPage) { _, context in
            let caller = context.caller
            let id = try context.id()
            let meetup = try domain.meetups.unpublishPage(meetupID: id, by: caller.actor)
            sharePageCache.removeAll()
            return .api(meetupBody(meetup))
        }
    }

    /// The discovery filters of `GET /v1/meetups`, each checked (a wrong value is a 400 naming it).
    func meetupSearch(_ request: Request) throws -> MeetupSearch {
        var search = MeetupSearch()
        try searchingQuery {
            search.near = try request.query("near").map { try GeoPoint(parsing: $0, field: "near") }
        }
        search.radiusKilometres = try request.query("radius_km", as: Double.self)
        search.gymID = try request.query("gym_id", as: Int64.self)
        search.from = try Self.day(request, "from")
        search.to = try Self.day(request, "to")
        if let text = request.query("q") { search.text = text }
        if let level = request.query("level") { search.level = level }
        search.discipline = try request.query("discipline", oneOf: MeetupDiscipline.self)
        search.tag = try request.query("tag", oneOf: MeetupTag.self)
        search.hasSpots = try request.query("has_spots", as: Bool.self) ?? false
        search.sort = try request.query("sort", oneOf: MeetupSearch.Sort.self) ?? .startsAt
        return search
    }

    /// Runs `body`, answering a search value the domain refused as a 400 naming the parameter.
    func searchingQuery<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DomainError where error.reason == .invalidInput && Self.searchParameters.contains(error.field ?? "") {
            let field = error.field ?? ""
            throw HTTPError.badRequest(code: "invalid_query_parameter", detail: "Query parameter `\(field)`: \(error.message).",
                                       extensions: ["parameter": .string(field), "expected": .string(error.message)])
        }
    }

    private static let searchParameters: Set<String> = ["near", "radius_km", "q", "level", "sort", "from", "to"]

    private static func day(_ request: Request, _ name: String) throws -> CalendarDay? {
        guard let text = request.query(name) else { return nil }
        guard let day = CalendarDay(text) else {
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `\(name)` is a day, YYYY-MM-DD, in each meetup's own zone; got `\(text.prefix(40))`.",
                                       extensions: ["parameter": .string(name), "expected": "a day, YYYY-MM-DD"])
        }
        return day
    }

    /// The scales the caller reads grades in.
    func logbookPreferences(of caller: AuthenticatedUser) throws -> LogbookPreferences {
        try domain.logbook.preferences(memberID: caller.userID)
    }

    /// A location from a body's `latitude` and `longitude`: both or neither.
    /// - Throws: `DomainError.invalid` naming the one that is missing or out of range.
    static func location(latitude: Double?, longitude: Double?) throws -> GeoPoint? {
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case let (latitude?, longitude?): return try GeoPoint(checkingLatitude: latitude, longitude: longitude, field: "latitude")
        case (nil, _): throw DomainError.invalid("latitude", "latitude goes with longitude; give both, or neither")
        case (_, nil): throw DomainError.invalid("longitude", "longitude goes with latitude; give both, or neither")
        }
    }

    /// A level from a body's `level_min` and `level_max`: both or neither.
    static func level(min: String?, max: String?, scale: GradeScale?, discipline: MeetupDiscipline?,
                      preferences: LogbookPreferences) throws -> MeetupLevel? {
        switch (min, max) {
        case (nil, nil): return nil
        case let (min?, max?):
            return try MeetupLevel.parse(lowest: min, highest: max, scale: scale, discipline: discipline, preferences: preferences, field: "level_min")
        case (nil, _): throw DomainError.invalid("level_min", "level_min goes with level_max; give both (the same grade twice for one grade), or neither")
        case (_, nil): throw DomainError.invalid("level_max", "level_max goes with level_min; give both (the same grade twice for one grade), or neither")
        }
    }
}

/// `PUT /v1/meetups/{id}/page`.
struct PublishPageRequest: Decodable {
    /// Whether the page shows the host's display name (default false).
    var showHost: Bool?

    enum CodingKeys: String, CodingKey {
        case showHost = "show_host"
    }
}
