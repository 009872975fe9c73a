import BelayCore
import BelayDomain
import BelayHTTP
import BelayIdentity

/// The OpenAPI 3.1 document served at `/openapi.json`: every route, parameter, request body,
/// response and problem type of the API. Tests check that it lists exactly the routes the
/// router has and that real responses match its schemas.
public enum OpenAPIDocument {
    /// The whole document, with `serverURL` as the one server (`/`: wherever the document was fetched from).
    public static func document(serverURL: String) -> JSONValue {
        var paths: [String: [String: JSONValue]] = [:]
        for operation in operations + webhookOperations + calendarOperations + attendeesExportOperations + holdOperations + cohostOperations + seriesOperations + waitlistOperations + accountOperations + pushOperations + kioskOperations + logbookOperations + safetyOperations + discoveryOperations + consoleOperations {
            paths[operation.path, default: [:]][operation.method.rawValue.lowercased()] = describe(operation)
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Belay API",
                "version": "1.0.0",
                "description": .string(introduction),
            ],
            "servers": [["url": .string(serverURL)]],
            "security": [["bearerAuth": []]],
            "tags": .array(["health", "meetups", "attendance", "check-in", "rewards", "sharing", "statistics", "collections"]
                .map { ["name": .string($0)] } + [["name": "webhooks"], ["name": "calendars"], ["name": "accounts"], ["name": "notifications"], ["name": "logbook"], ["name": "safety"], ["name": "discovery"]]),
            "webhooks": outgoingWebhooks,
            "paths": .object(paths.mapValues { .object($0) }),
            "components": [
                "securitySchemes": [
                    "bearerAuth": ["type": "http", "scheme": "bearer",
                                   "description": "The `access_token` of a sign-in (`/v1/auth/*`, an hour, renewed with the refresh token), or an API token an admin issued with `belay users token HANDLE`; both start with `belay_`."],
                ],
                "schemas": .object(allSchemas),
                "responses": .object(problemResponses),
            ],
        ]
    }

    /// Every schema group, in the order `components/schemas` takes them.
    static let schemaGroups = [schemas, webhookSchemas, holdSchemas, cohostSchemas, seriesSchemas, accountSchemas, pushSchemas, kioskSchemas, logbookSchemas, safetySchemas, discoverySchemas, consoleSchemas]

    /// `components/schemas`: the groups merged (the first of two same-named schemas is kept;
    /// `duplicateSchemaNames` lets the tests make sure there are none).
    static var allSchemas: [String: JSONValue] {
        schemaGroups.reduce(into: [:]) { merged, group in merged.merge(group) { first, _ in first } }
    }

    /// Names defined in more than one schema group: one of the two would silently hide the other
    /// (as a reward's five-member hold once hid the catalogue's `Hold`).
    public static var duplicateSchemaNames: [String] {
        var seen = Set<String>(), duplicates = Set<String>()
        for name in schemaGroups.flatMap(\.keys) where !seen.insert(name).inserted { duplicates.insert(name) }
        return duplicates.sorted()
    }

    /// Every documented operation's method and path, for the route check.
    public static var documentedRoutes: [(method: HTTPMethod, path: String)] {
        (operations + webhookOperations + calendarOperations + attendeesExportOperations + holdOperations + cohostOperations + seriesOperations + waitlistOperations + accountOperations + pushOperations + kioskOperations + logbookOperations + safetyOperations + discoveryOperations + consoleOperations).map { ($0.method, $0.path) }
    }

    /// Every problem `code` the API answers with, and when.
    public static let problemCodes: [(code: String, meaning: String)] = uniqueCodes([
        ("missing_token", "401: no `Authorization` header."),
        ("invalid_authorization", "401: the header is not `Bearer <token>`."),
        ("invalid_token", "401: the token is unknown or revoked."),
        ("route_not_found", "404: no route has this path."),
        ("method_not_allowed", "405: the path exists but not with this method; `Allow` lists the methods."),
        ("invalid_path_parameter", "400: a path parameter has the wrong type (`parameter` names it)."),
        ("invalid_query_parameter", "400: a query parameter has the wrong type or range (`parameter` names it)."),
        ("unknown_query_parameter", "400: the operation takes no query parameter of this name (`parameter` names it)."),
        ("empty_body", "400: the body is empty."),
        ("malformed_json", "400: the body is not JSON."),
        ("invalid_utf8", "400: the body is not UTF-8."),
        ("duplicate_field", "400: an object has a member twice."),
        ("unsupported_media_type", "415: the body is not `application/json`."),
        ("body_too_large", "413: the body is larger than `server.max_body_bytes`."),
        ("unknown_field", "422: the body has a member the operation does not take (`field` names it)."),
        ("missing_field", "422: a required member is missing or null (`field`)."),
        ("invalid_field", "422: a member has the wrong type or value (`field`)."),
        ("image_not_found", "404: the reward has no image with this hash (it was re-rendered); `current_url` says where it is."),
        ("render_failed", "409: the reward's images could not be rendered."),
        ("collection_unavailable", "503: this server cannot render collections now."),
        ("share_page_not_found", "404: no shared reward has this link."),
        ("reward_revoked", "410: the shared reward was revoked when its check-in was undone."),
        ("share_page_unpublished", "410: the member who shared the reward took its page down."),
        ("meetup_page_not_found", "404: no meetup page has this link."),
        ("meetup_page_unpublished", "410: the meetup's page was taken down, or the meetup made private or hidden."),
        ("card_unavailable", "503: this server cannot render share cards now."),
        ("render_pending", "503: a shared reward's sticker is still being rendered; retry after `Retry-After` seconds."),
        ("image_store_unavailable", "503: the bucket holding the images does not answer, or no link to an image in it can be signed now (the platform's temporary credentials ran out); retry after `Retry-After` seconds."),
        ("app_links_not_configured", "404: the club's app ids are not configured (`app_links` in config.json)."),
        ("badge_key_not_found", "404: the club never had a badge key with this thumbprint."),
        ("badges_not_issued", "404: this server issues no badges."),
        ("busy", "503: the database is busy; retry after `Retry-After` seconds."),
        ("storage_full", "503: the server's disk is full, so the write was not saved; retry after `Retry-After` seconds."),
        ("calendar_not_found", "404: no calendar feed has this token (it was revoked); `GET /v1/me` has the current URL."),
        ("internal_error", "500: an unexpected error, logged under the request id."),
        ("rate_limited", "429: too many requests under one limit (`policy` names it); retry after `Retry-After` seconds. Every limited answer has the `RateLimit` and `RateLimit-Policy` fields."),
        ("sign_in_method_disabled", "403: this way of signing in is not set up on the server."),
        ("invalid_body", "422: the body's members do not fit together (say which one to send)."),
        ("invalid_request_target", "400: the path or query holds %00 (a NUL once decoded)."),
        ("invalid_header_name", "400: a header field name is not a token (`Transfer-Encoding : chunked`)."),
        ("invalid_header_value", "400: a header field's line holds a NUL byte or is folded over two lines."),
        ("conflicting_content_length", "400: Content-Length fields with different values."),
        ("conflicting_framing", "400: both Content-Length and Transfer-Encoding."),
        ("missing_host", "400: an HTTP/1.1 request without `Host`."),
        ("duplicate_host", "400: more than one `Host`."),
        ("uri_too_long", "414: the path and query are longer than the server takes."),
        ("headers_too_large", "431: the header section is larger than the server takes."),
        ("shutting_down", "503: the server is stopping; retry after `Retry-After` seconds (another node, or this one once restarted)."),
        ("not_found", "404: no such file."),
    ] + kioskProblemCodes + safetyProblemCodes + identityTokenCodes.map { code in
        (code.rawValue, code == .keysUnavailable ? "503: the identity provider's keys cannot be fetched now; retry after `Retry-After` seconds."
            : code == .malformedToken ? "422: the ID token is not a JWT." : "401: the ID token was refused.")
    } + RefusalReason.allCases.filter { $0 != .storageFailure && $0 != .leaseLost }.map { reason in
        (reason.rawValue, "A refusal of the club's rules; `reason` is `\(reason.rawValue)` (404 for a missing thing, 403 for `not_permitted` (every 403: the caller may not do this), 422 for bad input or a wrong code, 409 otherwise).")
    })

    /// `codes` with each code once, its first meaning kept (a refusal reason such as
    /// `reward_revoked` is also a code the share pages answer with).
    static func uniqueCodes(_ codes: [(code: String, meaning: String)]) -> [(code: String, meaning: String)] {
        var seen: Set<String> = []
        return codes.filter { seen.insert($0.code).inserted }
    }

    /// Every refusal of an ID token, for the problem codes.
    static let identityTokenCodes: [IdentityTokenError.Code] = [
        .malformedToken, .algorithmNotAllowed, .keyMismatch, .unknownKey, .badSignature, .wrongIssuer, .wrongAudience,
        .wrongAuthorizedParty, .expired, .issuedInFuture, .notYetValid, .wrongNonce, .missingNonce, .keysUnavailable, .malformedKeys,
    ]

    static let introduction = """
        The API of Belay, a climbing club's app backend: meetups, joining and the waitlist, check-in \
        with the host's rotating code, the hold earned as a reward, its story-ready sticker, and what \
        the app needs to share it to Instagram or Facebook Stories or the system share sheet.

        Every route except `/healthz`, `/readyz`, `/openapi.json`, signing in (`/v1/auth/…`), the public \
        share pages (`/s/…`, their stylesheet), the front-desk kiosk (`/k/…`, its check-in links `/c/…`, its \
        script and stylesheet) and the app-link files (`/.well-known/…`) needs \
        `Authorization: Bearer <token>`: the access token of a sign-in, renewed with its refresh token. \
        Members act for themselves; hosts manage the meetups they host; admins everything. Bodies are \
        JSON with snake_case members; times are RFC 3339 with an offset, always explicit: what belongs to a \
        meetup (its start and end, its check-in window, its check-in code's `valid_from` and \
        `expires_at`) is written with the meetup's offset in its `time_zone`; other times carry the \
        club's offset or `Z`. Lists take `limit` and `cursor` and answer `{"items": [...], "next_cursor": ...}`. \
        Every error is an RFC 9457 `application/problem+json` object with a stable `code` (and a \
        `reason` for refusals of the club's rules) and a `detail` saying what to do.
        """

    // MARK: Operations

    static let operations: [OpenAPIOperation] = {
        typealias Answer = OpenAPIOperation.Answer
        let ok = { (description: String, schema: String) in Answer(status: 200, description: description, schema: Schema.ref(schema)) }
        let created = { (description: String, schema: String) in Answer(status: 201, description: description, schema: Schema.ref(schema)) }
        let immutableImage = { (type: String) in
            Answer.bytes("The image; cache it forever (the URL changes when the image does).", contentType: type,
                         headers: ["ETag": ["schema": Schema.string, "description": "The content hash in quotes."],
                                   "Cache-Control": ["schema": Schema.string, "description": "`private, max-age=31536000, immutable`."]])
        }
        let notModified = Answer(status: 304, description: "The `If-None-Match` ETag is current.", schema: nil)
        let inBucket = Answer(status: 302, description: "With `images.store = s3`: the image is at `Location` (the bucket's CDN, or a presigned URL valid for `images.s3.presign_seconds`).",
                              schema: nil, headers: ["Location": ["schema": Schema.string, "description": "Where the image's bytes are."],
                                                     "ETag": ["schema": Schema.string, "description": "The content hash in quotes."]])
        let pending = Answer(status: 202, description: "The image is still being rendered (a reward's story follows its sticker); try again after `Retry-After` seconds.",
                             schema: Schema.ref("RenderPending"),
                             headers: ["Retry-After": ["schema": Schema.integer, "description": "Seconds to wait."]])
        let ifNoneMatch = OpenAPIOperation.header("If-None-Match", "An ETag from an earlier answer: 304 when it is still current.")

        return [
            OpenAPIOperation(method: .get, path: "/healthz", operationID: "health", summary: "Is the process up?", tag: "health",
                             isPublic: true, answers: [ok("The process answers.", "Health")]),
            OpenAPIOperation(method: .get, path: "/readyz", operationID: "readiness", summary: "Can it serve: database reachable, migrations current?",
                             tag: "health", isPublic: true,
                             answers: [ok("Ready.", "Readiness"),
                                       Answer(status: 503, description: "Not ready; `checks` says what is wrong.", schema: Schema.ref("Readiness"))]),
            OpenAPIOperation(method: .get, path: "/openapi.json", operationID: "openAPI", summary: "This document.", tag: "health",
                             isPublic: true,
                             answers: [Answer(status: 200, description: "The OpenAPI 3.1 document.", schema: ["type": "object"])]),
            OpenAPIOperation(method: .get, path: "/metrics", operationID: "metrics", summary: "Prometheus metrics (admins).", tag: "health",
                             description: "Requests by route and status, latency histograms, render queue depth and durations, check-ins and share events.",
                             answers: [Answer(status: 200, description: "Prometheus text format 0.0.4.", schema: Schema.string,
                                              contentType: "text/plain")],
                             problems: [403]),

            OpenAPIOperation(method: .get, path: "/v1/me", operationID: "me", summary: "The caller's account.", tag: "accounts",
                             answers: [ok("The account behind the token.", "Profile")]),

            OpenAPIOperation(method: .get, path: "/v1/meetups", operationID: "listMeetups", summary: "List meetups.", tag: "meetups",
                             queryParameters: [
                                OpenAPIOperation.query("scope", Schema.enumeration(["upcoming", "past", "all"]),
                                                       "`upcoming` (default, not yet ended, soonest first), `past` (most recent first) or `all`."),
                                OpenAPIOperation.query("place", Schema.string, "Only meetups at this exact place name."),
                                OpenAPIOperation.query("host_id", Schema.id(), "Only meetups of this host."),
                                OpenAPIOperation.query("include_cancelled", Schema.boolean, "List cancelled meetups too (default true; a search with any filter below never lists them)."),
                                OpenAPIOperation.limit(20, 200), OpenAPIOperation.cursor,
                             ] + meetupSearchParameters,
                             answers: [ok("A page of meetups.", "MeetupList")], problems: [400]),
            OpenAPIOperation(method: .post, path: "/v1/meetups", operationID: "createMeetup", summary: "Create a meetup (any member, unless the club lets only hosts and admins).",
                             tag: "meetups", description: "The caller creates meetups they host themselves (with `meetups.created_by` set to `hosts`, only hosts and admins may: 403 `not_permitted` for a member); an admin may name any host in `host_id`. A meetup whose end is in the past is refused (422, `field: ends_at`) unless an admin sets `record_past: true` to record one that happened; it is then `completed` at once when its check-in window has closed, and admins can add attendees and check them in with `checked_in_at`.",
                             requestBody: "CreateMeetup",
                             answers: [created("The meetup; `Location` is its URL.", "Meetup")], problems: [400, 403, 404, 413, 415, 422]),
            OpenAPIOperation(method: .get, path: "/v1/meetups/{id}", operationID: "getMeetup", summary: "One meetup.", tag: "meetups",
                             description: "404 `meetup_not_found`, as for an unknown id, for a private meetup, a hidden one (`hidden`) and one whose host blocked the caller or whom the caller blocked, unless the caller manages it, has an attendance at it, or (a hidden one) moderates.",
                             answers: [ok("The meetup with its attendance counts.", "Meetup")], problems: [400, 404]),
            OpenAPIOperation(method: .patch, path: "/v1/meetups/{id}", operationID: "updateMeetup",
                             summary: "Change a meetup (its host or an admin).", tag: "meetups",
                             description: "Members left out stay as they are; `\"address\": null` removes the address. Raising the capacity promotes waitlisted members.",
                             requestBody: "UpdateMeetup",
                             answers: [ok("The changed meetup.", "Meetup")], problems: [400, 403, 404, 409, 413, 415, 422]),
            OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/cancel", operationID: "cancelMeetup",
                             summary: "Cancel a meetup (its host or an admin).", tag: "meetups",
                             description: "Every going and waitlisted attendance is cancelled too; check-ins made stay. Cancelling twice is harmless.",
                             answers: [ok("The cancelled meetup.", "Meetup")], problems: [400, 403, 404, 409]),
            OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/attendees", operationID: "listAttendees",
                             summary: "A meetup's attendees in join order (its host or an admin).", tag: "meetups",
                             queryParameters: [
                                OpenAPIOperation.query("status", Schema.enumeration(AttendanceStatus.allCases.map(\.rawValue)), "Only attendees with this status."),
                                OpenAPIOperation.limit(50, 500), OpenAPIOperation.cursor,
                             ],
                             answers: [ok("A page of attendees.", "AttendeeList")], problems: [400, 403, 404]),
            OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/check-in-code", operationID: "checkInCode",
                             summary: "The rotating check-in code to show (the meetup's host or an admin).", tag: "check-in",
                             answers: [ok("The current code and when it expires; the previous code is accepted for one more step.", "CheckInCode")],
                             problems: [400, 403, 404, 409]),

            OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/join", operationID: "joinMeetup", summary: "Join a meetup.", tag: "attendance",
                             description: "`going` while there is a place and nobody waits, otherwise `waitlisted` at the back of the line.",
                             answers: [created("Joined now.", "Attendance"), ok("Already attending; nothing changed.", "Attendance")],
                             problems: [400, 404, 409]),
            OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/leave", operationID: "leaveMeetup", summary: "Leave a meetup.", tag: "attendance",
                             description: "When a going member leaves, the first waitlisted members are promoted in the same transaction.",
                             answers: [ok("Left.", "LeaveResult")], problems: [400, 404, 409]),
            OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/attendance", operationID: "myAttendance",
                             summary: "The caller's attendance of a meetup.", tag: "attendance",
                             answers: [ok("The attendance.", "Attendance")], problems: [400, 404]),

            OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/check-in", operationID: "checkIn", summary: "Check in.", tag: "check-in",
                             description: """
                                A member sends `{"code": "123456"}` (the code the host shows); the meetup's host or an admin sends \
                                `{"user_id": 7}` to check a member in now, or `{"user_id": 7, "at": "…"}` to record an offline check-in. \
                                The first success is 201; a repeat (same `Idempotency-Key`, or already checked in) is 200 with the same body. \
                                Refusals are 409 or 422 with a `reason`: `not_attending`, `waitlisted`, `already_cancelled`, \
                                `meetup_cancelled`, `window_not_open`, `window_closed`, `bad_code`, `too_many_attempts`, `idempotency_key_reused`.
                                """,
                             headerParameters: [OpenAPIOperation.header("Idempotency-Key", "A retry with the same key returns the first result.",
                                                                       schema: ["type": "string", "pattern": "^[!-~]{1,200}$"])],
                             requestBody: "CheckInRequest",
                             answers: [created("Checked in; the reward's images render in the background.", "CheckInResult"),
                                       ok("Already checked in; the first result again.", "CheckInResult")],
                             problems: [400, 403, 404, 409, 413, 415, 422]),

            OpenAPIOperation(method: .get, path: "/v1/me/rewards", operationID: "myRewards", summary: "The caller's rewards, newest first.", tag: "rewards",
                             queryParameters: [OpenAPIOperation.query("include_revoked", Schema.boolean, "Also list rewards whose check-in was undone."),
                                               OpenAPIOperation.limit(20, 200), OpenAPIOperation.cursor],
                             answers: [ok("A page of rewards.", "RewardList")], problems: [400]),
            OpenAPIOperation(method: .get, path: "/v1/rewards/{id}", operationID: "getReward",
                             summary: "One reward (its member, its meetup's host, or an admin).", tag: "rewards",
                             answers: [ok("The reward; `render_status` says whether its images are ready.", "Reward")], problems: [400, 403, 404]),
            OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/sticker/{hash}.png", operationID: "stickerImage",
                             summary: "The reward's sticker PNG (transparent outside its rounded corners).", tag: "rewards",
                             headerParameters: [ifNoneMatch],
                             answers: [immutableImage("image/png"), inBucket, pending, notModified], problems: [400, 403, 404, 409, 503]),
            OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/story/{hash}.png", operationID: "storyImagePNG",
                             summary: "The reward's 1080x1920 story image.", tag: "rewards", headerParameters: [ifNoneMatch],
                             answers: [immutableImage("image/png"), inBucket, pending, notModified], problems: [400, 403, 404, 409, 503]),
            OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/story/{hash}.jpg", operationID: "storyImageJPEG",
                             summary: "The reward's 1080x1920 story image, when the server stores stories as JPEG.", tag: "rewards",
                             headerParameters: [ifNoneMatch],
                             answers: [immutableImage("image/jpeg"), inBucket, pending, notModified], problems: [400, 403, 404, 409, 503]),

            OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/stories-background/{hash}.png", operationID: "storiesBackgroundPNG",
                             summary: "The Stories background layer of the reward's colours (no sticker), as the share payload links it.",
                             tag: "rewards", headerParameters: [ifNoneMatch],
                             answers: [immutableImage("image/png"), notModified], problems: [403, 404]),
            OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/share", operationID: "sharePayload",
                             summary: "Everything the app needs to share the reward, per target.", tag: "sharing",
                             description: "A target that cannot work now says `available: false` with a `reason`: `render_pending`, `render_failed`, `reward_revoked`, or a missing App ID (`instagram_app_id_missing`, `facebook_app_id_missing`). Asking never publishes the reward's public page: `share_sheet.link` is its address once its member published it (`page_published`), and until then the member gets `publish_url`, where a POST publishes it.",
                             answers: [ok("The share payload.", "SharePayload")], problems: [400, 403, 404]),
            OpenAPIOperation(method: .post, path: "/v1/rewards/{id}/share-page", operationID: "publishSharePage",
                             summary: "Publish the reward's public page, `/s/{slug}` (the reward's member).", tag: "sharing",
                             description: "Anyone with the link then sees the hold, its place and date, the club, the sticker and a link-preview card, and the member's display name only when their share preference shows it (`shows_name`; `PUT /v1/me/share-preferences`). Idempotent: publishing a published page answers 200 with the same address. A page taken down stays gone; publishing again gives a new address. 409 `reward_revoked` for a revoked reward.",
                             answers: [created("Published.", "SharePage"), ok("Already published; the same page.", "SharePage")],
                             problems: [400, 403, 404, 409]),
            OpenAPIOperation(method: .delete, path: "/v1/rewards/{id}/share-page", operationID: "unpublishSharePage",
                             summary: "Take the reward's public page down (its member, or an admin).", tag: "sharing",
                             description: "Its link answers 410 Gone from then on, here at once and through caches within 30 seconds. Taking down a page that is not published is harmless.",
                             answers: [Answer(status: 204, description: "Not published (any more).", schema: nil)], problems: [400, 403, 404]),
            OpenAPIOperation(method: .post, path: "/v1/rewards/{id}/share-events", operationID: "recordShareEvent",
                             summary: "Report a share (the reward's member).", tag: "sharing",
                             description: "A retry with a `client_event_id` used before records nothing and answers 200 with the first event.",
                             requestBody: "ShareEventRequest",
                             answers: [created("Recorded.", "ShareEvent"), ok("Seen before; the first event.", "ShareEvent")],
                             problems: [400, 403, 404, 409, 413, 415, 422]),
            OpenAPIOperation(method: .get, path: "/v1/stats/shares", operationID: "shareStatistics",
                             summary: "Share counts by meetup, target and day (hosts: their meetups; admins: all).", tag: "statistics",
                             description: "A member who hosts or co-hosts a meetup sees its counts by naming it with `meetup_id`; the host role and admins may also leave it out. With `by`, the counts are summed per day, per target or per meetup instead, every group in one page (no `cursor`); the fields summed over are null.",
                             queryParameters: [
                                OpenAPIOperation.query("meetup_id", Schema.id(), "Only this meetup."),
                                OpenAPIOperation.query("from", Schema.dateTime, "Only events at or after this time."),
                                OpenAPIOperation.query("to", Schema.dateTime, "Only events before this time."),
                                OpenAPIOperation.query("by", Schema.enumeration(ShareStatisticGrouping.allCases.map(\.rawValue)),
                                                       "Sum per `day`, per `target` or per `meetup` (default: a row per meetup, day and target)."),
                                OpenAPIOperation.limit(100, 500), OpenAPIOperation.cursor,
                             ],
                             answers: [ok("A page of statistics, by meetup, day and target.", "ShareStatisticList")], problems: [400, 403, 404]),

            OpenAPIOperation(method: .get, path: "/s/{slug}", operationID: "sharePage",
                             summary: "The public page of a shared reward (HTML, no token).", tag: "share pages",
                             description: """
                                The link in the share-sheet text. Server-rendered HTML in the club's language with Open Graph and \
                                Twitter card tags (`og:image` is the 1200x630 card), cacheable for 30 seconds. 410 with an HTML \
                                page when the reward was revoked or its member took the page down; 404 with an HTML page for an \
                                unknown link.
                                """,
                             isPublic: true, headerParameters: [ifNoneMatch],
                             answers: [Answer(status: 200, description: "The page.", schema: Schema.string, contentType: "text/html"),
                                       notModified,
                                       Answer(status: 404, description: "No shared reward has this link.", schema: Schema.string, contentType: "text/html"),
                                       Answer(status: 410, description: "The reward was revoked, or its member took the page down.", schema: Schema.string, contentType: "text/html")]),
            OpenAPIOperation(method: .get, path: "/s/{slug}/sticker.png", operationID: "sharePageSticker",
                             summary: "The sticker of a shared reward (public, no token).", tag: "share pages", isPublic: true,
                             headerParameters: [ifNoneMatch],
                             answers: [Answer.bytes("The sticker PNG, cacheable for 30 seconds.", contentType: "image/png"),
                                       inBucket, notModified],
                             problems: [404, 410, 503]),
            OpenAPIOperation(method: .get, path: "/s/{slug}/card.png", operationID: "sharePageCard",
                             summary: "The 1200x630 link-preview card of a shared reward (`og:image`; public, no token).",
                             tag: "share pages", isPublic: true, headerParameters: [ifNoneMatch],
                             answers: [Answer.bytes("The card PNG, cacheable for 30 seconds.", contentType: "image/png"),
                                       notModified],
                             problems: [404, 410, 503]),
            OpenAPIOperation(method: .get, path: "/assets/share-page.css", operationID: "sharePageStylesheet",
                             summary: "The share pages' stylesheet.", tag: "share pages", isPublic: true,
                             answers: [Answer(status: 200, description: "CSS.", schema: Schema.string, contentType: "text/css")]),
            OpenAPIOperation(method: .get, path: "/.well-known/apple-app-site-association", operationID: "appleAppSiteAssociation",
                             summary: "Universal Links: share pages open the club's iOS app (`app_links.ios_app_ids`).",
                             tag: "share pages", isPublic: true,
                             answers: [Answer(status: 200, description: "`applinks` in the `components` format.", schema: ["type": "object"])],
                             problems: [404]),
            OpenAPIOperation(method: .get, path: "/.well-known/assetlinks.json", operationID: "assetLinks",
                             summary: "Android App Links: share pages open the club's Android app (`app_links.android_*`).",
                             tag: "share pages", isPublic: true,
                             answers: [Answer(status: 200, description: "The Digital Asset Links statements (one, for the club's app).",
                                              schema: Schema.array(of: Schema.ref("AssetLinkStatement")))],
                             problems: [404]),
            OpenAPIOperation(method: .get, path: "/holds/{hold_id}/artwork.png", operationID: "publicHoldArtwork",
                             summary: "A hold's artwork without a token: the image of the badges that award it.", tag: "badges",
                             isPublic: true, headerParameters: [ifNoneMatch],
                             answers: [Answer.bytes("The PNG.", contentType: "image/png"), notModified],
                             problems: [404]),
            OpenAPIOperation(method: .get, path: "/issuer", operationID: "badgeIssuer",
                             summary: "The club as an Open Badges 3.0 issuer: its profile and every badge key it has used (no token).",
                             tag: "badges", isPublic: true,
                             answers: [Answer(status: 200, description: "The issuer profile with `publicKeys` (JWKs, each with its `kid`).",
                                              schema: ["type": "object"])],
                             problems: [404]),
            OpenAPIOperation(method: .get, path: "/issuer/keys/{thumbprint}", operationID: "badgeKey",
                             summary: "One badge key by its JWK thumbprint: the `kid` of badges signed with it (no token).",
                             tag: "badges", isPublic: true,
                             answers: [Answer(status: 200, description: "The public key as a JWK.", schema: ["type": "object"])],
                             problems: [404]),
            OpenAPIOperation(method: .get, path: "/badges/status/{thumbprint}", operationID: "badgeRevocations",
                             summary: "Revoked badges: a Bitstring Status List credential signed with the key of this thumbprint (VC-JWT; bit N is reward N; no token).",
                             tag: "badges", isPublic: true,
                             answers: [Answer.bytes("The compact JWT (ASCII).", contentType: "application/vc+jwt")],
                             problems: [404]),
            OpenAPIOperation(method: .get, path: "/v1/me/share-preferences", operationID: "sharePreferences",
                             summary: "What the caller's share pages show.", tag: "share pages",
                             answers: [ok("The preferences.", "SharePreferences")]),
            OpenAPIOperation(method: .put, path: "/v1/me/share-preferences", operationID: "setSharePreferences",
                             summary: "Choose what the caller's share pages show (their display name or not).", tag: "share pages",
                             requestBody: "SharePreferences",
                             answers: [ok("The preferences now.", "SharePreferences")], problems: [400, 415, 422]),

            OpenAPIOperation(method: .get, path: "/v1/me/collection.png", operationID: "myCollection",
                             summary: "The caller's whole hold collection as one tall PNG.", tag: "collections",
                             queryParameters: [OpenAPIOperation.query("scale", ["type": "integer", "enum": [1, 2, 3], "default": 2], "1x, 2x or 3x.")],
                             headerParameters: [ifNoneMatch],
                             answers: [Answer.bytes("The PNG; revalidate with its ETag.", contentType: "image/png"), notModified],
                             problems: [400, 503]),
            OpenAPIOperation(method: .get, path: "/v1/users/{id}/collection.png", operationID: "memberCollection",
                             summary: "A member's collection (hosts and admins).", tag: "collections",
                             queryParameters: [OpenAPIOperation.query("scale", ["type": "integer", "enum": [1, 2, 3], "default": 2], "1x, 2x or 3x.")],
                             headerParameters: [ifNoneMatch],
                             answers: [Answer.bytes("The PNG; revalidate with its ETag.", contentType: "image/png"), notModified],
                             problems: [400, 403, 404, 503]),
        ]
    }()

    static func describe(_ operation: OpenAPIOperation) -> JSONValue {
        var parameters: [JSONValue] = operation.pathParameterNames.map { name in
            let schema: JSONValue = name == "hash"
                ? ["type": "string", "pattern": "^[0-9a-f]{64}$"]
                : name == "token" ? OpenAPIOperation.withoutNul(["type": "string", "description": operation.path.hasPrefix("/k/") ? "The kiosk link's token." : "The feed token from `calendar_url`."])
                : name == "hold_id" ? OpenAPIOperation.withoutNul(["type": "string", "description": "A hold id from `GET /v1/holds`, e.g. `jug-gold`."])
                : name == "slug" ? OpenAPIOperation.withoutNul(Schema.string)
                : ["type": "integer", "format": "int64", "minimum": 1]
            let description = name == "hash" ? "The image's content hash, as in the reward's image URL." : "The \(name)."
            return ["name": .string(name), "in": "path", "required": true, "schema": schema, "description": .string(description)]
        }
        parameters += operation.queryParameters + operation.headerParameters
        var responses: [String: JSONValue] = [:]
        for answer in operation.answers {
            var response: [String: JSONValue] = ["description": .string(answer.description)]
            if let schema = answer.schema {
                response["content"] = .object([answer.contentType: ["schema": schema]].merging(answer.alternatives.mapValues { ["schema": $0] }) { first, _ in first })
            }
            if !answer.headers.isEmpty { response["headers"] = .object(answer.headers) }
            responses[String(answer.status)] = .object(response)
        }
        var problems = Set(operation.problems)
        if !operation.isPublic { problems.insert(401) }
        // Until a member accepts the club's terms, every change answers 403 `terms_required`.
        if !operation.isPublic && operation.method != .get && operation.method != .head { problems.insert(403) }
        // Changes are limited per member, the public pages per address (`rate_limits`).
        if operation.method != .get || ["/s/", "/issuer", "/badges/", "/holds/", "/.well-known/", "/assets/", "/k/", "/c/"].contains(where: operation.path.hasPrefix) {
            problems.insert(429)
        }
        // Any operation: 400 for a query parameter it does not take (or a NUL in the target),
        // 500 for a defect, 503 while the database is busy, full or being shut down.
        problems.formUnion([400, 500, 503])
        for status in problems.sorted() where responses[String(status)] == nil {
            responses[String(status)] = ["$ref": .string("#/components/responses/Problem\(status)")]
        }
        var members: [String: JSONValue] = [
            "operationId": .string(operation.operationID),
            "summary": .string(operation.summary),
            "tags": [.string(operation.tag)],
            "parameters": .array(parameters),
            "responses": .object(responses),
        ]
        if !operation.description.isEmpty { members["description"] = .string(operation.description) }
        if operation.isPublic { members["security"] = [] }
        if let body = operation.requestBody {
            members["requestBody"] = ["required": .bool(!operation.requestBodyIsOptional),
                                      "content": ["application/json": ["schema": Schema.ref(body)]]]
        }
        return .object(members)
    }

    static let problemResponses: [String: JSONValue] = {
        let statuses = [400, 401, 403, 404, 409, 410, 413, 415, 422, 429, 500, 503]
        var responses: [String: JSONValue] = [:]
        for status in statuses {
            var response: [String: JSONValue] = [
                "description": .string(HTTPStatus(code: status).reasonPhrase + " (a problem; see `Problem` for the codes)."),
                "content": ["application/problem+json": ["schema": Schema.ref("Problem")]],
            ]
            let retryAfter: JSONValue = ["schema": Schema.integer, "description": "Seconds to wait before trying again."]
            switch status {
            case 401:
                response["headers"] = ["WWW-Authenticate": ["schema": Schema.string, "description": "`Bearer realm=\"belay\"`, with an `error` when a token was sent."]]
            case 429:
                response["headers"] = [
                    "Retry-After": retryAfter,
                    "RateLimit": ["schema": Schema.string, "description": "The limit that answered, as the IETF RateLimit header fields draft writes it: `\"name\";r=0;t=SECONDS`."],
                    "RateLimit-Policy": ["schema": Schema.string, "description": "The policy behind it: `\"name\";q=QUOTA;w=WINDOW_SECONDS`."],
                ]
            case 503:
                response["headers"] = ["Retry-After": retryAfter]
            default:
                break
            }
            responses["Problem\(status)"] = .object(response)
        }
        return responses
    }()
}
