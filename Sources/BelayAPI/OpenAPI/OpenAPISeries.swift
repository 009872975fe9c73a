import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let seriesSchemas: [String: JSONValue] = [
        "CreateMeetupSeries": Schema.object([
            "title": Schema.text(.meetupTitle),
            "description": Schema.text(.meetupDescription),
            "place_name": Schema.text(.meetupPlaceName),
            "address": Schema.text(.meetupAddress),
            "starts_at": Schema.dateTime,
            "ends_at": Schema.dateTime,
            "time_zone": Schema.timeZone("The series' zone (each meetup is at the same local time in it): `club.time_zone` when left out."),
            "capacity": Schema.capacity,
            "host_id": Schema.id(),
            "repeat": Schema.enumeration(MeetupRepeat.allCases.map(\.rawValue)),
            "until": Schema.dateTime,
        ], optional: ["description", "address", "time_zone", "host_id"]),
    ]
}

/// Recurring meetups.
extension Operations {
    private static let list = OpenAPIOperation.Answer(status: 200, description: "The meetups changed, soonest first.", schema: Schema.ref("MeetupList"))

    static let createMeetupSeries = OpenAPIOperation(method: .post, path: "/v1/meetups/series", operationID: "createMeetupSeries",
                                                     summary: "Create a weekly series of meetups (hosts and admins).", tag: "meetups",
                                                     description: "The meetup and its repetitions every week whose start is at or before `until` (2 to 104 meetups), at the same local time in the meetup's zone across daylight-saving changes. Each is a meetup of its own with `series_id` set.",
                                                     requestBody: "CreateMeetupSeries",
                                                     answers: [OpenAPIOperation.Answer(status: 201, description: "The series, soonest first.", schema: Schema.ref("MeetupList"))],
                                                     problems: [403, 404, 413, 415, 422])
    static let updateMeetupAndFollowing = OpenAPIOperation(method: .patch, path: "/v1/meetups/{id}/following", operationID: "updateMeetupAndFollowing",
                                                           summary: "Change a meetup of a series and every later scheduled one, in one transaction.", tag: "meetups",
                                                           description: "Takes the body of `PATCH /v1/meetups/{id}`. A new start or end moves each meetup by the same local shift (19:00 → 19:30 on every date). A time-zone change goes one meetup at a time (422). On a one-off meetup it is `PATCH /v1/meetups/{id}`.",
                                                           requestBody: "UpdateMeetup", answers: [list], problems: [403, 404, 409, 413, 415, 422])
    static let cancelMeetupAndFollowing = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/cancel-following", operationID: "cancelMeetupAndFollowing",
                                                           summary: "Cancel a meetup of a series and every later scheduled one, in one transaction.", tag: "meetups",
                                                           description: "Each is cancelled as `POST /v1/meetups/{id}/cancel` cancels one (those going and waiting are told, `meetup.cancelled` goes out for each). Meetups of the series before this one, and later ones already cancelled or completed, are left as they are. The caller must manage every meetup it would cancel (their host, a co-host or an admin), else 403 `not_permitted` and none changes. A meetup that is already cancelled or completed answers 409 `meetup_cancelled` / `meetup_completed`. On a one-off meetup it cancels that meetup alone.",
                                                           answers: [OpenAPIOperation.Answer(status: 200, description: "The meetups cancelled now, soonest first.", schema: Schema.ref("MeetupList"))],
                                                           problems: [400, 403, 404, 409])
}
