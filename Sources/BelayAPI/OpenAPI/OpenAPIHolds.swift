import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let holdSchemas: [String: JSONValue] = [
        "Hold": Schema.object([
            "id": Schema.string,
            "name": Schema.string,
            "type": Schema.string("jug, crimp, sloper, pinch, volume, …"),
            "color": Schema.color,
            "rarity": Schema.enumeration(HoldRarity.allCases.map(\.rawValue)),
            "milestone_only": Schema.boolean,
            "milestone_check_in": Schema.nullable(Schema.integer("The Nth check-in that earns it, when it is a milestone hold.")),
            "milestone_streak_weeks": Schema.nullable(Schema.integer("The weekly streak length that earns it, when it is a streak milestone hold.")),
            "artwork_url": Schema.uri,
        ]),
        "HoldList": Schema.list(of: "Hold"),
        "Progress": Schema.object([
            "check_ins": Schema.integer,
            "holds_collected": Schema.integer("Distinct catalogue holds the member has."),
            "holds_total": Schema.integer("Holds in the catalogue."),
            "by_rarity": Schema.array(of: Schema.object(["rarity": Schema.enumeration(HoldRarity.allCases.map(\.rawValue)),
                                                         "collected": Schema.integer, "total": Schema.integer])),
            "next_milestone": Schema.nullable(Schema.object(["check_in": Schema.integer, "hold_id": Schema.string,
                                                             "remaining": Schema.integer("Check-ins to go.")])),
            "streak": Schema.object(["current_weeks": Schema.integer("Weeks in a row with a check-in, in the club's zone (this week counts once it has one)."),
                                     "longest_weeks": Schema.integer, "this_week_done": Schema.boolean]),
            "next_streak_milestone": Schema.nullable(Schema.object([
                "weeks": Schema.integer("The streak length that earns the hold."), "hold_id": Schema.string,
                "remaining": Schema.integer("Weeks to go from the current streak.")])),
        ]),
    ]
}

/// The hold catalogue.
extension Operations {
    static let listHolds = OpenAPIOperation(method: .get, path: "/v1/holds", operationID: "listHolds", summary: "The hold catalogue (retired holds left out).",
                                            tag: "rewards",
                                            answers: [OpenAPIOperation.Answer(status: 200, description: "Every hold that can be earned.", schema: Schema.ref("HoldList"))])
    static let holdArtwork = OpenAPIOperation(method: .get, path: "/v1/holds/{hold_id}/artwork.png", operationID: "holdArtwork", summary: "A hold's artwork.",
                                              tag: "rewards", headerParameters: [OpenAPIOperation.header("If-None-Match", "An ETag from an earlier answer: 304 when it is still current.")],
                                              answers: [.bytes("The PNG.", contentType: "image/png",
                                                               headers: ["ETag": ["schema": Schema.string, "description": "The artwork's digest."]]),
                                                        OpenAPIOperation.Answer(status: 304, description: "The `If-None-Match` ETag is current.", schema: nil)],
                                              problems: [404])
}
