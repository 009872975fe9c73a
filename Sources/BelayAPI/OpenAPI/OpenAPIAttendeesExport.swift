import BelayHTTP

/// The attendee list as CSV.
extension Operations {
    static let meetupAttendeesCSV = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/attendees.csv", operationID: "meetupAttendeesCSV",
                                                     summary: "A meetup's attendees as CSV, for the door list and records (its host and admins).", tag: "meetups",
                                                     description: "RFC 4180 with a header row: `handle,display_name,status,waitlist_position,joined_at,checked_in_at,check_in_method`; times in RFC 3339 with the meetup's offset; a field a spreadsheet would run as a formula starts with `'`.",
                                                     answers: [OpenAPIOperation.Answer(status: 200, description: "The CSV file, every attendee in join order.",
                                                                                       schema: ["type": "string", "contentMediaType": "text/csv"], contentType: "text/csv")],
                                                     problems: [403, 404])
}
