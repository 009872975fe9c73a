import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let safetySchemas: [String: JSONValue] = [
        "BlockState": Schema.object(["user_id": Schema.integer, "blocked": Schema.boolean]),
        "BanState": Schema.object(["user_id": Schema.integer, "banned": Schema.boolean]),
        "BlockedMember": Schema.object(["user_id": Schema.integer, "handle": Schema.string, "display_name": Schema.string, "since": Schema.dateTime]),
        "BlockedMemberList": Schema.list(of: "BlockedMember"),
        "ReportRequest": Schema.object([
            "subject_type": Schema.enumeration(ReportSubjectType.allCases.map(\.rawValue)),
            "subject_id": ["anyOf": [Schema.id("A meetup's or member's id (a `meetup_page`'s meetup id)."), Schema.string("A share page's slug (`/s/{slug}`), a meetup page's slug (`/m/{slug}`, kept as its meetup's id), or an id as text.")]],
            "reason": Schema.enumeration(ReportReason.allCases.map(\.rawValue)),
            "note": Schema.text(TextRule.reportNote, "What the moderators should know.", allowingEmpty: true),
        ], optional: ["note"]),
        "Report": Schema.object([
            "id": Schema.integer,
            "subject_type": Schema.enumeration(ReportSubjectType.allCases.map(\.rawValue)),
            "subject_id": Schema.string,
            "reason": Schema.enumeration(ReportReason.allCases.map(\.rawValue)),
            "note": Schema.string,
            "status": Schema.enumeration(ReportStatus.allCases.map(\.rawValue)),
            "outcome": Schema.nullable(Schema.enumeration(ModerationActionKind.allCases.filter { $0 != .resetSecondFactor }.map(\.rawValue), description: "What the moderators did, once they did.")),
            "created_at": Schema.dateTime, "updated_at": Schema.dateTime, "resolved_at": Schema.nullable(Schema.dateTime),
        ]),
        "ReportList": Schema.list(of: "Report"),
        "ReportedSubject": Schema.object([
            "subject_type": Schema.enumeration(ReportSubjectType.allCases.map(\.rawValue)),
            "subject_id": Schema.string,
            "subject_user_id": Schema.nullable(Schema.integer("The member responsible: the meetup's host, the page's owner, the member.")),
            "snapshot": ["type": "object", "description": "The content as it was when first reported."],
            "hidden": Schema.boolean,
            "report_count": Schema.integer,
            "first_reported_at": Schema.nullable(Schema.dateTime),
            "reasons": ["type": "object", "additionalProperties": Schema.integer, "description": "Open reports by reason."],
            "reports": Schema.array(of: Schema.object(["id": Schema.integer, "reason": Schema.enumeration(ReportReason.allCases.map(\.rawValue)),
                                                       "note": Schema.string, "created_at": Schema.dateTime])),
        ]),
        "ReportedSubjectList": Schema.list(of: "ReportedSubject"),
        "ModerationActionRequest": Schema.object([
            "action": Schema.enumeration(ModerationActionKind.requestable.map(\.rawValue)),
            "subject_type": Schema.enumeration(ReportSubjectType.allCases.map(\.rawValue)),
            "subject_id": ["anyOf": [Schema.id("A meetup's or member's id (a `meetup_page`'s meetup id)."), Schema.string("A share page's slug (`/s/{slug}`), a meetup page's slug (`/m/{slug}`, kept as its meetup's id), or an id as text.")]],
            "reason": Schema.text(TextRule.moderationReason, "Why: kept in the log."),
            "until": ["type": "string", "format": "date-time", "description": "For `suspend`: when it ends; leave out to suspend for good."],
        ], optional: ["until"]),
        "ModerationAction": Schema.object([
            "id": Schema.integer,
            "moderator_id": Schema.nullable(Schema.integer),
            "action": Schema.enumeration(ModerationActionKind.allCases.map(\.rawValue)),
            "subject_type": Schema.enumeration(ReportSubjectType.allCases.map(\.rawValue)),
            "subject_id": Schema.string,
            "reason": Schema.string,
            "report_ids": Schema.array(of: Schema.integer),
            "until": Schema.nullable(Schema.dateTime),
            "created_at": Schema.dateTime,
        ]),
        "ModerationActionList": Schema.list(of: "ModerationAction"),
        "TermsRequest": Schema.object(["version": Schema.string("The version `terms_required` named.")]),
        "TermsAcceptance": Schema.object(["version": Schema.string, "accepted_at": Schema.dateTime]),
    ]

    /// The problem codes of safety and moderation that are not refusal reasons.
    static let safetyProblemCodes: [(code: String, meaning: String)] = [
        ("terms_required", "403: accept the club's terms first (`POST /v1/me/terms`); `version` and `url` say which and where."),
        ("share_page_withheld", "410: the club's moderators took the shared page down, or its member is suspended."),
    ]
}

/// Safety where strangers meet: blocks, host bans, reports, terms, and moderation.
extension Operations {
    private static let noStore: [String: JSONValue] = ["Cache-Control": ["schema": Schema.string, "description": "`no-store`."]]
    private static func blockState(_ status: Int, _ description: String) -> Answer { Answer(status: status, description: description, schema: Schema.ref("BlockState"), headers: noStore) }
    private static func banState(_ status: Int, _ description: String) -> Answer { Answer(status: status, description: description, schema: Schema.ref("BanState"), headers: noStore) }
    private static let moderators = "Moderators (members an admin made moderators with `belay moderation grant`) and admins; anyone else gets 403 `not_permitted`."

    static let blockMember = OpenAPIOperation(method: .put, path: "/v1/me/blocks/{user_id}", operationID: "blockMember",
                                              summary: "Block a member, both ways.", tag: "safety",
                                              description: """
                                                 Neither member sees the other's meetups in lists from then on, and neither can join (or claim an offered \
                                                 place at) a meetup the other hosts or co-hosts: refused with 403 `not_permitted` in words that say nothing \
                                                 of the block. A member already going stays; the host and co-hosts see their side of the block on the \
                                                 attendee list (`blocked_by_host`). Blocking \
                                                 again changes nothing (200). 422 `invalid_input` for oneself; 404 `user_not_found`.
                                                 """,
                                              answers: [blockState(201, "Blocked now."), blockState(200, "Already blocked.")],
                                              problems: [403, 404, 422])
    static let unblockMember = OpenAPIOperation(method: .delete, path: "/v1/me/blocks/{user_id}", operationID: "unblockMember",
                                                summary: "Lift a block the caller made.", tag: "safety",
                                                description: "Harmless when there is none.",
                                                answers: [blockState(200, "Not blocked (any more).")], problems: [403])
    static let listBlocks = OpenAPIOperation(method: .get, path: "/v1/me/blocks", operationID: "listBlocks",
                                             summary: "The members the caller blocked, the latest first (never who blocked the caller).", tag: "safety",
                                             answers: [Answer(status: 200, description: "Every block.", schema: Schema.ref("BlockedMemberList"), headers: noStore)])
    static let banMember = OpenAPIOperation(method: .put, path: "/v1/me/banned/{user_id}", operationID: "banMember",
                                            summary: "Ban a member from every meetup the caller hosts from now on.", tag: "safety",
                                            description: "The member cannot join them (403 `not_permitted`, no word of the ban); one already going stays and can be taken off with `DELETE /v1/meetups/{id}/attendees/{user_id}`. A ban is not a block: the meetups still show in the member's lists.",
                                            answers: [banState(201, "Banned now."), banState(200, "Already banned.")],
                                            problems: [403, 404, 422])
    static let unbanMember = OpenAPIOperation(method: .delete, path: "/v1/me/banned/{user_id}", operationID: "unbanMember",
                                              summary: "Lift a ban the caller made.", tag: "safety",
                                              description: "Harmless when there is none.",
                                              answers: [banState(200, "Not banned (any more).")], problems: [403])
    static let listBans = OpenAPIOperation(method: .get, path: "/v1/me/banned", operationID: "listBans",
                                           summary: "The members the caller banned from their meetups, the latest first.", tag: "safety",
                                           answers: [Answer(status: 200, description: "Every ban.", schema: Schema.ref("BlockedMemberList"), headers: noStore)])
    static let fileReport = OpenAPIOperation(method: .post, path: "/v1/reports", operationID: "fileReport",
                                             summary: "Report a meetup, a member, a share page or a meetup's page to the club's moderators.", tag: "safety",
                                             description: """
                                                One open report per reporter and subject: reporting the same subject again updates the reason and note \
                                                (200). The content is kept as it was when first reported, so an edit afterwards hides nothing. The \
                                                reporter is never named to the subject, in the moderators' queue or in webhooks. At most \
                                                `moderation.reports_per_member_per_day` new reports a day (429 `report_limit`). When \
                                                `moderation.auto_hide_reports` members report one subject within `moderation.auto_hide_window_hours`, it \
                                                is hidden until a moderator looks. A `meetup_page` is named by the slug of its link (`/m/{slug}`) or its \
                                                meetup's id and kept under the meetup's id (the answer's `subject_id`), so both land on one subject; its \
                                                snapshot has what the page showed (its link, the host's name when it named them). 404 `meetup_not_found` \
                                                (also for a slug no page has), `user_not_found`, `share_page_not_found` (with `field` `subject_id`).
                                                """,
                                             requestBody: "ReportRequest",
                                             answers: [Answer(status: 201, description: "Filed.", schema: Schema.ref("Report"), headers: noStore),
                                                       Answer(status: 200, description: "The caller's open report of this subject, updated.", schema: Schema.ref("Report"), headers: noStore)],
                                             problems: [403, 404, 413, 415, 422])
    static let listMyReports = OpenAPIOperation(method: .get, path: "/v1/me/reports", operationID: "listMyReports",
                                                summary: "The caller's reports, newest first, with what the moderators did.", tag: "safety",
                                                queryParameters: [OpenAPIOperation.limit(50, 200), OpenAPIOperation.cursor],
                                                answers: [Answer(status: 200, description: "A page of reports.", schema: Schema.ref("ReportList"), headers: noStore)],
                                                problems: [400])
    static let acceptTerms = OpenAPIOperation(method: .post, path: "/v1/me/terms", operationID: "acceptTerms",
                                              summary: "Accept the club's terms (`accounts.terms_version`).", tag: "safety",
                                              description: "Until the current version is accepted, every change by a member (not an admin) answers 403 `terms_required` with the `version` and `url` to read. Accepting again keeps the first time. 422 `invalid_input` (field `version`) for another version, or when the club asks for no terms.",
                                              requestBody: "TermsRequest",
                                              answers: [Answer(status: 200, description: "Accepted.", schema: Schema.ref("TermsAcceptance"), headers: noStore)],
                                              problems: [413, 415, 422])
    static let moderationQueue = OpenAPIOperation(method: .get, path: "/v1/moderation/reports", operationID: "moderationQueue",
                                                  summary: "Open reports grouped by subject, the longest waiting first (moderators).", tag: "safety",
                                                  description: "Each subject with the content as it was when first reported (`snapshot`), the reasons counted, and its open reports without their reporters. \(moderators)",
                                                  queryParameters: [OpenAPIOperation.limit(50, 200)],
                                                  answers: [Answer(status: 200, description: "The queue.", schema: Schema.ref("ReportedSubjectList"), headers: noStore)],
                                                  problems: [400, 403])
    static let moderate = OpenAPIOperation(method: .post, path: "/v1/moderation/actions", operationID: "moderate",
                                           summary: "Act on a reported subject (moderators).", tag: "safety",
                                           description: """
                                              `dismiss` closes the subject's open reports; `hide` takes a meetup out of every list (and it takes no \
                                              new members), a share page down (410 `share_page_withheld`), or replaces a member's display name and \
                                              handle with neutral ones (`Member`, `hidden-N`) until they choose new ones; `warn` records a warning; `suspend` (with `until`, or for good without) refuses the member's \
                                              sign-in with `account_suspended`, ends their sessions, tokens and calendar feed at once and cancels the \
                                              meetups they host that have not started, telling those going; `lift` ends a suspension or shows hidden \
                                              content again. Each action closes the open reports (their reporters see the outcome in \
                                              `GET /v1/me/reports`) and is written to the append-only log. \(moderators) Suspending oneself or an admin \
                                              is refused.
                                              """,
                                           requestBody: "ModerationActionRequest",
                                           answers: [Answer(status: 201, description: "Done and logged.", schema: Schema.ref("ModerationAction"), headers: noStore)],
                                           problems: [403, 404, 413, 415, 422])
    static let moderationAudit = OpenAPIOperation(method: .get, path: "/v1/moderation/audit", operationID: "moderationAudit",
                                                  summary: "The append-only log of moderation actions, newest first (moderators).", tag: "safety",
                                                  description: "Who (`moderator_id`, null for the command line and the automatic hide), what, why and the report ids. \(moderators)",
                                                  queryParameters: [OpenAPIOperation.limit(50, 200), OpenAPIOperation.cursor,
                                                                    OpenAPIOperation.query("subject_type", Schema.enumeration(ReportSubjectType.allCases.map(\.rawValue)), "Only this subject's entries (with `subject_id`)."),
                                                                    OpenAPIOperation.query("subject_id", OpenAPIOperation.withoutNul(Schema.string), "The subject's id or slug (with `subject_type`).")],
                                                  answers: [Answer(status: 200, description: "A page of the log.", schema: Schema.ref("ModerationActionList"), headers: noStore)],
                                                  problems: [400, 403])
}
