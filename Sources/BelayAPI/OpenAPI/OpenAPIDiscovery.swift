import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    /// The discovery filters of `GET /v1/meetups`.
    static let meetupSearchParameters: [JSONValue] = {
        let day: JSONValue = ["type": "string", "format": "date", "description": "A day, YYYY-MM-DD, in each meetup's own zone."]
        return [
            OpenAPIOperation.query("near", ["type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+$"],
                                   "`LAT,LON` in degrees: only meetups within `radius_km` of it, each with `distance_km`."),
            OpenAPIOperation.query("radius_km", ["type": "number", "exclusiveMinimum": 0, "maximum": .int(Int64(MeetupSearch.maximumRadiusKilometres))],
                                   "With `near`: the radius in kilometres (default \(Int(MeetupSearch.defaultRadiusKilometres)), at most \(Int(MeetupSearch.maximumRadiusKilometres)))."),
            OpenAPIOperation.query("gym_id", Schema.id(), "Only meetups at this gym."),
            OpenAPIOperation.query("from", day, "Only meetups starting on or after this day, in each meetup's own zone."),
            OpenAPIOperation.query("to", day, "Only meetups starting on or before this day, in each meetup's own zone."),
            OpenAPIOperation.query("q", ["type": "string", "minLength": 2, "maxLength": 100],
                                   "Words found in the title, description, place, address and gym names, by substring in any script (`강남` finds 더클라임 강남점), case- and accent-insensitively; every word of two or more characters must be found; title matches come first."),
            OpenAPIOperation.query("level", ["type": "string", "maxLength": 20],
                                   "A grade (`V4`, `6b+`, `5.11a`): meetups whose level range holds it (read in the caller's preferred scale first, then the other scales of the discipline's axis)."),
            OpenAPIOperation.query("discipline", Schema.enumeration(MeetupDiscipline.allCases.map(\.rawValue)), "Only this discipline."),
            OpenAPIOperation.query("tag", Schema.enumeration(MeetupTag.allCases.map(\.rawValue)), "Only meetups with this tag."),
            OpenAPIOperation.query("has_spots", Schema.boolean, "Only meetups with places left (going below capacity)."),
            OpenAPIOperation.query("sort", Schema.enumeration(MeetupSearch.Sort.allCases.map(\.rawValue)),
                                   "`starts_at` (default; the scope's direction, title matches first with `q`) or `distance` (nearest first; needs `near`)."),
        ]
    }()

    static let discoverySchemas: [String: JSONValue] = [
        "GeoPoint": Schema.object(["latitude": Schema.latitude, "longitude": Schema.longitude]),
        "MeetupLevel": Schema.object([
            "axis": Schema.enumeration(GradeAxis.allCases.map(\.rawValue)),
            "scale": Schema.enumeration(GradeScale.allCases.map(\.rawValue)),
            "min": Schema.string("The easiest grade, as the host gave it."),
            "max": Schema.string("The hardest grade, as the host gave it."),
            "display_scale": Schema.enumeration(GradeScale.allCases.map(\.rawValue), description: "The caller's preferred scale of the axis."),
            "display_min": Schema.string("`min` in the caller's scale."),
            "display_max": Schema.string("`max` in the caller's scale."),
            "score_min": Schema.integer, "score_max": Schema.integer,
        ]),
        "MeetupPublicPage": Schema.object(["url": Schema.uri, "published_at": Schema.dateTime, "shows_host": Schema.boolean]),
        "PublishMeetupPage": Schema.object(["show_host": Schema.boolean], optional: ["show_host"]),
        "Follow": Schema.object(["type": Schema.enumeration(["gym", "host"]), "id": Schema.integer, "name": Schema.string, "created_at": Schema.dateTime]),
        "FollowList": Schema.list(of: "Follow"),
        "FeedItem": Schema.object(["reason": Schema.enumeration(["followed_gym", "followed_host", "nearby"]), "meetup": Schema.ref("Meetup")]),
        "FeedList": Schema.list(of: "FeedItem"),
    ]
}

/// Follows, the feed and meetups' public pages.
extension Operations {
    private static let follows = Answer(status: 200, description: "Everything the caller follows, oldest first.", schema: Schema.ref("FollowList"))
    private static let notModified = Answer(status: 304, description: "The `If-None-Match` ETag is current.", schema: nil)
    private static let ifNoneMatch = OpenAPIOperation.header("If-None-Match", "An ETag from an earlier answer: 304 when it is still current.")

    static let listFollows = OpenAPIOperation(method: .get, path: "/v1/me/follows", operationID: "listFollows", summary: "The gyms and hosts the caller follows.",
                                              tag: "discovery", description: "A host blocked either way is left out (the follow shows again, and notices resume, when the block is lifted).",
                                              answers: [follows])
    static let followGym = OpenAPIOperation(method: .put, path: "/v1/me/follows/gyms/{id}", operationID: "followGym",
                                            summary: "Follow a gym: a notice when a meetup there is created (at most one a day per gym).", tag: "discovery",
                                            answers: [follows], problems: [400, 404])
    static let unfollowGym = OpenAPIOperation(method: .delete, path: "/v1/me/follows/gyms/{id}", operationID: "unfollowGym", summary: "Stop following a gym.",
                                              tag: "discovery", answers: [follows], problems: [400])
    static let followHost = OpenAPIOperation(method: .put, path: "/v1/me/follows/hosts/{id}", operationID: "followHost",
                                             summary: "Follow a host: a notice when they create a meetup (at most one a day per host).", tag: "discovery",
                                             description: "A host the caller blocked, or who blocked the caller, cannot be followed: 403 `not_permitted`, in the words a join is refused in, saying nothing of the block.",
                                             answers: [follows], problems: [400, 403, 404, 422])
    static let unfollowHost = OpenAPIOperation(method: .delete, path: "/v1/me/follows/hosts/{id}", operationID: "unfollowHost", summary: "Stop following a host.",
                                               tag: "discovery", answers: [follows], problems: [400])
    static let feed = OpenAPIOperation(method: .get, path: "/v1/me/feed", operationID: "feed", summary: "Upcoming meetups for the caller.",
                                       tag: "discovery",
                                       description: "Upcoming public meetups at the gyms the caller follows, then by the hosts they follow, then within \(Int(MeetupSearch.defaultRadiusKilometres)) km of their last location (`near`, remembered until they give another), each soonest first. Blocks apply both ways (no meetup of a host the caller blocked or who blocked the caller); hidden and private meetups and the caller's own are left out.",
                                       queryParameters: [
                                          OpenAPIOperation.query("near", ["type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+$"], "`LAT,LON`: the caller's location now (kept as their last location)."),
                                          OpenAPIOperation.limit(20, 100), OpenAPIOperation.cursor,
                                       ],
                                       answers: [Answer(status: 200, description: "A page of the feed.", schema: Schema.ref("FeedList"))], problems: [400])
    static let publishMeetupPage = OpenAPIOperation(method: .put, path: "/v1/meetups/{id}/page", operationID: "publishMeetupPage",
                                                    summary: "Publish the meetup's public page, `/m/{slug}` (its host, co-hosts and admins).", tag: "discovery",
                                                    description: "128 random bits in the link; publishing again after unpublishing gives the same link. `show_host` names the host (display name only) on the page. A private meetup has no public page (422, `field: visibility`).",
                                                    requestBody: "PublishMeetupPage", requestBodyIsOptional: true,
                                                    answers: [Answer(status: 200, description: "The meetup, with `public_page`.", schema: Schema.ref("Meetup"))],
                                                    problems: [400, 403, 404, 413, 415, 422])
    static let unpublishMeetupPage = OpenAPIOperation(method: .delete, path: "/v1/meetups/{id}/page", operationID: "unpublishMeetupPage",
                                                      summary: "Take the public page down; its link answers 410.", tag: "discovery",
                                                      answers: [Answer(status: 200, description: "The meetup, without `public_page`.", schema: Schema.ref("Meetup"))],
                                                      problems: [400, 403, 404])
    static let meetupPage = OpenAPIOperation(method: .get, path: "/m/{slug}", operationID: "meetupPage", summary: "A meetup's public page (HTML, no token).",
                                             tag: "discovery",
                                             description: "Server-rendered HTML in the club's language, without script: title, place with map links, the time in the meetup's zone and in UTC, places left, level, tags, the host's name if they chose; Open Graph, Twitter and App Links tags (which KakaoTalk and LINE read too) and an `Event` in JSON-LD. Cacheable for 30 seconds with an ETag.",
                                             isPublic: true, takesAnyQuery: true, headerParameters: [ifNoneMatch],
                                             answers: [Answer(status: 200, description: "The page.", schema: Schema.string, contentType: "text/html"), notModified,
                                                       Answer(status: 404, description: "No meetup page has this link.", schema: Schema.string, contentType: "text/html"),
                                                       Answer(status: 410, description: "The page was unpublished, or the meetup made private or hidden.", schema: Schema.string, contentType: "text/html")])
    static let meetupPageCard = OpenAPIOperation(method: .get, path: "/m/{slug}/card.png", operationID: "meetupPageCard",
                                                 summary: "The 1200x630 link-preview card of a published meetup (`og:image`; no token).", tag: "discovery",
                                                 isPublic: true, takesAnyQuery: true, headerParameters: [ifNoneMatch],
                                                 answers: [Answer.bytes("The card PNG (template `meetup-card`): the club, title, time, place, level and places left.", contentType: "image/png"),
                                                           notModified],
                                                 problems: [404, 410, 503])
    static let meetupPageCalendar = OpenAPIOperation(method: .get, path: "/m/{slug}.ics", operationID: "meetupPageCalendar",
                                                     summary: "A published meetup as an RFC 5545 calendar (no token).", tag: "discovery", isPublic: true,
                                                     takesAnyQuery: true, headerParameters: [ifNoneMatch],
                                                     answers: [Answer(status: 200, description: "The calendar.", schema: Schema.string, contentType: "text/calendar"), notModified],
                                                     problems: [404, 410])
}
