import BelayHTTP

/// Calendar feeds (RFC 5545).
extension Operations {
    private static let calendar = Answer(status: 200, description: "An RFC 5545 calendar: times in the meetup's zone (`TZID` with a `VTIMEZONE`), a stable `UID`, `SEQUENCE` bumped by every change, `STATUS:CANCELLED` for cancelled meetups, a `VALARM` reminder (`calendar.alarm_minutes_before`).",
                          schema: ["type": "string", "contentMediaType": "text/calendar"], contentType: "text/calendar",
                          headers: ["ETag": ["schema": Schema.string, "description": "The content's digest; send it back in `If-None-Match`."]])
    private static let notModified = Answer(status: 304, description: "The `If-None-Match` ETag is current.", schema: nil)
    private static let ifNoneMatch = OpenAPIOperation.header("If-None-Match", "An ETag from an earlier answer: 304 when it is still current.")

    static let calendarFeed = OpenAPIOperation(method: .get, path: "/v1/calendar/{token}.ics", operationID: "calendarFeed",
                                               summary: "A member's private calendar feed; the token in the URL is the credential.", tag: "calendars",
                                               description: "The meetups the member is going to, waitlisted for (`STATUS:TENTATIVE`) or checked in at, from 90 days back, and cancelled meetups they were attending. Get the URL from `GET /v1/me` (`calendar_url`).",
                                               isPublic: true, headerParameters: [ifNoneMatch], answers: [calendar, notModified], problems: [404])
    static let meetupCalendar = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}.ics", operationID: "meetupCalendar",
                                                 summary: "One meetup as an RFC 5545 calendar, to add it to a calendar app.", tag: "calendars",
                                                 description: "A meetup the caller may not read with `GET /v1/meetups/{id}` (private, hidden, or across a block) answers 404 `meetup_not_found` here too, as an unknown id.",
                                                 headerParameters: [ifNoneMatch], answers: [calendar, notModified], problems: [404])
    static let revokeCalendarFeed = OpenAPIOperation(method: .post, path: "/v1/me/calendar/revoke", operationID: "revokeCalendarFeed",
                                                     summary: "Revoke the caller's calendar feed URL; the answer has the new one.", tag: "calendars",
                                                     answers: [Answer(status: 200, description: "The new feed URL; the old one answers 404 from now on.",
                                                                      schema: Schema.object(["calendar_url": Schema.string]))])
}
