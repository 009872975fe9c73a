import BelayHTTP

extension OpenAPIDocument {
    /// Waitlist offers.
    static let waitlistOperations: [OpenAPIOperation] = [
        OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/claim", operationID: "claimOffer",
                         summary: "Claim the place the caller was offered (with `waitlist.claim_minutes` set).", tag: "attendance",
                         description: "A freed place is offered to the first waitlisted member until `offer_expires_at`; claiming it makes them `going`. An offer not claimed in time ends their place in line (`attendance.offer_expired`) and passes to the next. To decline, leave the meetup. Claiming again when already going answers the attendance.",
                         answers: [OpenAPIOperation.Answer(status: 200, description: "The attendance, now `going`.", schema: Schema.ref("Attendance"))],
                         problems: [404, 409]),
    ]
}
