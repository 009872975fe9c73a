import BelayHTTP

/// Waitlist offers.
extension Operations {
    static let claimOffer = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/claim", operationID: "claimOffer",
                                             summary: "Claim the place the caller was offered (with `waitlist.claim_minutes` set).", tag: "attendance",
                                             description: "A freed place is offered to the first waitlisted member until `offer_expires_at`; claiming it makes them `going`. An offer not claimed in time ends their place in line (`attendance.offer_expired`) and passes to the next. To decline, leave the meetup. Claiming again when already going answers the attendance. An offer made before a block between the caller and the meetup's host or a co-host (either way), or their ban, is withdrawn at the claim and passes to the next: 403 `not_permitted`, in words that say nothing of the block; the caller stays in line.",
                                             answers: [OpenAPIOperation.Answer(status: 200, description: "The attendance, now `going`.", schema: Schema.ref("Attendance"))],
                                             problems: [403, 404, 409])
}
