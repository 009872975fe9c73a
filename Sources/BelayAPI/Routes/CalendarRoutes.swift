import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// Calendar feeds: the member's private feed (its token is the credential, so calendar
    /// apps can subscribe without an API token), one meetup as `.ics`, and revoking the feed URL.
    func registerCalendarRoutes(public router: OperationRoutes<APIContext>, authenticated routes: OperationRoutes<AuthenticatedContext>) {
        router.on(Operations.calendarFeed) { request, context in
            let token = try context.parameters.require("token")
            return try calendarFeed(memberID: try calendarFeedMember(token: token), request: request)
        }

        routes.on(Operations.meetupCalendar) { request, context in
            let caller = context.caller
            let entry = try domain.calendar.entry(meetupID: try context.id(), seenBy: caller.actor)
            return calendarResponse(CalendarFeedBody(name: entry.meetup.title, entries: [entry], settings: services.calendar).bytes,
                                    request: request, fileName: "meetup-\(entry.meetup.id).ics")
        }

        routes.on(Operations.revokeCalendarFeed) { _, context in
            let caller = context.caller
            let token = try domain.calendar.revokeFeedToken(memberID: caller.userID, by: caller.actor)
            var json = JSONOutput()
            json.object { json in json.member("calendar_url", calendarFeedURL(token: token)) }
            return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                            body: ResponseBody(bytes: json.bytes))
        }
    }

    /// The member whose feed `token` opens, kept in the response cache like the feed's ETag (a
    /// calendar app asks every few minutes, and a 304 then reads nothing from the database); a
    /// revocation through this server shows at once, one made elsewhere within the cache's lifetime.
    /// - Throws: `HTTPError` 404 `calendar_not_found` for a token that was revoked or never made.
    private func calendarFeedMember(token: String) throws -> Int64 {
        let key = ResponseCache.Key.calendarFeedMember(token)
        if let known = responseCache.body(for: key), let memberID = Int64(String(decoding: known, as: UTF8.self)) {
            return memberID
        }
        let generation = responseCache.currentGeneration
        guard let memberID = try domain.calendar.member(forFeedToken: token) else {
            throw HTTPError(.notFound, code: "calendar_not_found",
                            detail: "No calendar feed has this address: it was revoked or mistyped. Get the current one from GET /v1/me (calendar_url).")
        }
        responseCache.store(Array(String(memberID).utf8), for: key, readGeneration: generation)
        return memberID
    }

    /// The absolute URL of a member's current feed.
    func calendarFeedURL(memberID: Int64) throws -> String {
        calendarFeedURL(token: try domain.calendar.feedToken(memberID: memberID))
    }

    func calendarFeedURL(token: String) -> String {
        presentation.baseURL.url + "/v1/calendar/\(token).ics"
    }

    /// A member's feed. Its ETag comes first, from the feed's version (kept like a meetup's
    /// body in the response cache, so while nothing changes even the version query is
    /// skipped); a matching `If-None-Match` is answered 304 without building anything, and a
    /// feed already built is sent from memory. Only a feed not seen before is built.
    private func calendarFeed(memberID: Int64, request: Request) throws -> Response {
        let key = ResponseCache.Key.calendarFeedETag(memberID)
        let etag: String
        if let known = responseCache.body(for: key) {
            etag = String(decoding: known, as: UTF8.self)
        } else {
            let generation = responseCache.currentGeneration
            etag = calendarFeeds.etag(of: try domain.calendar.feedVersion(memberID: memberID))
            responseCache.store(Array(etag.utf8), for: key, readGeneration: generation)
        }
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "private, no-cache"]
        if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "text/calendar; charset=utf-8")
        if let body = calendarFeeds.body(etag: etag) {
            return Response(status: .ok, headers: headers, body: ResponseBody(bytes: body))
        }
        // Built from one read, named by that read's own version (newer than `etag` if
        // something changed in between).
        let entries = try domain.calendar.feed(memberID: memberID)
        let builtETag = calendarFeeds.etag(of: CalendarFeedVersion(entries: entries))
        let bytes = CalendarFeedBody(name: calendarFeeds.name, entries: entries, settings: services.calendar).bytes
        services.metrics.answerBuilt(.calendarFeed)
        calendarFeeds.store(bytes, etag: builtETag)
        headers.replaceOrAdd(name: "ETag", value: builtETag)
        return Response(status: .ok, headers: headers, body: ResponseBody(bytes: bytes))
    }

    /// `text/calendar` with an ETag of the content; 304 when `If-None-Match` has it.
    func calendarResponse(_ bytes: [UInt8], request: Request, fileName: String? = nil) -> Response {
        let etag = ContentETag.of( bytes)
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "private, no-cache"]
        if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "text/calendar; charset=utf-8")
        if let fileName { headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(fileName)\"") }
        return Response(status: .ok, headers: headers, body: ResponseBody(bytes: bytes))
    }
}
