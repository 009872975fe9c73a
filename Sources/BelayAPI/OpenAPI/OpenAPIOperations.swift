import BelayCore
import BelayDomain
import BelayHTTP

/// Every operation of the API, each under the name its route is registered with:
/// `routes.on(Operations.checkIn) { request, context in … }`. The document served at
/// `/openapi.json` lists the operations the router was given, so an operation exists in the
/// document exactly when its route exists. Each area's operations are in its `OpenAPI…` file.
enum Operations {
    typealias Answer = OpenAPIOperation.Answer
}

/// Health, the caller's account, meetups, attendance, check-in, rewards, sharing, statistics and
/// collections.
extension Operations {
    private static func ok(_ description: String, _ schema: String) -> Answer { Answer(status: 200, description: description, schema: Schema.ref(schema)) }
    private static func created(_ description: String, _ schema: String) -> Answer { Answer(status: 201, description: description, schema: Schema.ref(schema)) }
    private static func immutableImage(_ type: String) -> Answer {
        Answer.bytes("The image; cache it forever (the URL changes when the image does).", contentType: type,
                     headers: ["ETag": ["schema": Schema.string, "description": "The content hash in quotes."],
                               "Cache-Control": ["schema": Schema.string, "description": "`private, max-age=31536000, immutable`."]])
    }
    private static let notModified = Answer(status: 304, description: "The `If-None-Match` ETag is current.", schema: nil)
    private static let inBucket = Answer(status: 302, description: "With `images.store = s3`: the image is at `Location` (the bucket's CDN, or a presigned URL valid for `images.s3.presign_seconds`).",
                          schema: nil, headers: ["Location": ["schema": Schema.string, "description": "Where the image's bytes are."],
                                                 "ETag": ["schema": Schema.string, "description": "The content hash in quotes."]])
    private static let pending = Answer(status: 202, description: "The image is still being rendered (a reward's story follows its sticker); try again after `Retry-After` seconds.",
                         schema: Schema.ref("RenderPending"),
                         headers: ["Retry-After": ["schema": Schema.integer, "description": "Seconds to wait."]])
    private static let ifNoneMatch = OpenAPIOperation.header("If-None-Match", "An ETag from an earlier answer: 304 when it is still current.")

    static let health = OpenAPIOperation(method: .get, path: "/healthz", operationID: "health", summary: "Is the process up?", tag: "health",
                                         isPublic: true, answers: [ok("The process answers.", "Health")])
    static let readiness = OpenAPIOperation(method: .get, path: "/readyz", operationID: "readiness", summary: "Can it serve: database reachable, migrations current?",
                                            tag: "health", isPublic: true,
                                            answers: [ok("Ready.", "Readiness"),
                                                      Answer(status: 503, description: "Not ready; `checks` says what is wrong.", schema: Schema.ref("Readiness"))])
    static let openAPI = OpenAPIOperation(method: .get, path: "/openapi.json", operationID: "openAPI", summary: "This document.", tag: "health",
                                          isPublic: true,
                                          answers: [Answer(status: 200, description: "The OpenAPI 3.1 document.", schema: ["type": "object"])])
    static let metrics = OpenAPIOperation(method: .get, path: "/metrics", operationID: "metrics", summary: "Prometheus metrics (admins).", tag: "health",
                                          description: "Requests by route and status, latency histograms, render queue depth and durations, check-ins and share events.",
                                          answers: [Answer(status: 200, description: "Prometheus text format 0.0.4.", schema: Schema.string,
                                                           contentType: "text/plain")],
                                          problems: [403])
    static let me = OpenAPIOperation(method: .get, path: "/v1/me", operationID: "me", summary: "The caller's account.", tag: "accounts",
                                     answers: [ok("The account behind the token.", "Profile")])
    static let listMeetups = OpenAPIOperation(method: .get, path: "/v1/meetups", operationID: "listMeetups", summary: "List meetups.", tag: "meetups",
                                              queryParameters: [
                                                 OpenAPIOperation.query("scope", Schema.enumeration(["upcoming", "past", "all"]),
                                                                        "`upcoming` (default, not yet ended, soonest first), `past` (most recent first) or `all`."),
                                                 OpenAPIOperation.query("place", Schema.string, "Only meetups at this exact place name."),
                                                 OpenAPIOperation.query("host_id", Schema.id(), "Only meetups of this host."),
                                                 OpenAPIOperation.query("include_cancelled", Schema.boolean, "List cancelled meetups too (default true; a search with any filter below never lists them)."),
                                                 OpenAPIOperation.limit(20, 200), OpenAPIOperation.cursor,
                                              ] + OpenAPIDocument.meetupSearchParameters,
                                              answers: [ok("A page of meetups.", "MeetupList")], problems: [400])
    static let createMeetup = OpenAPIOperation(method: .post, path: "/v1/meetups", operationID: "createMeetup", summary: "Create a meetup (any member, unless the club lets only hosts and admins).",
                                               tag: "meetups", description: "The caller creates meetups they host themselves (with `meetups.created_by` set to `hosts`, only hosts and admins may: 403 `not_permitted` for a member); an admin may name any host in `host_id`. A meetup whose end is in the past is refused (422, `field: ends_at`) unless an admin sets `record_past: true` to record one that happened; it is then `completed` at once when its check-in window has closed, and admins can add attendees and check them in with `checked_in_at`.",
                                               requestBody: "CreateMeetup",
                                               answers: [created("The meetup; `Location` is its URL.", "Meetup")], problems: [400, 403, 404, 413, 415, 422])
    static let getMeetup = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}", operationID: "getMeetup", summary: "One meetup.", tag: "meetups",
                                            description: "404 `meetup_not_found`, as for an unknown id, for a private meetup, a hidden one (`hidden`) and one whose host blocked the caller or whom the caller blocked, unless the caller manages it, has an attendance at it, or (a hidden one) moderates.",
                                            answers: [ok("The meetup with its attendance counts.", "Meetup")], problems: [400, 404])
    static let updateMeetup = OpenAPIOperation(method: .patch, path: "/v1/meetups/{id}", operationID: "updateMeetup",
                                               summary: "Change a meetup (its host or an admin).", tag: "meetups",
                                               description: "Members left out stay as they are; `\"address\": null` removes the address. Raising the capacity promotes waitlisted members.",
                                               requestBody: "UpdateMeetup",
                                               answers: [ok("The changed meetup.", "Meetup")], problems: [400, 403, 404, 409, 413, 415, 422])
    static let cancelMeetup = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/cancel", operationID: "cancelMeetup",
                                               summary: "Cancel a meetup (its host or an admin).", tag: "meetups",
                                               description: "Every going and waitlisted attendance is cancelled too; check-ins made stay. Cancelling twice is harmless.",
                                               answers: [ok("The cancelled meetup.", "Meetup")], problems: [400, 403, 404, 409])
    static let listAttendees = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/attendees", operationID: "listAttendees",
                                                summary: "A meetup's attendees in join order (its host or an admin).", tag: "meetups",
                                                queryParameters: [
                                                   OpenAPIOperation.query("status", Schema.enumeration(AttendanceStatus.allCases.map(\.rawValue)), "Only attendees with this status."),
                                                   OpenAPIOperation.limit(50, 500), OpenAPIOperation.cursor,
                                                ],
                                                answers: [ok("A page of attendees.", "AttendeeList")], problems: [400, 403, 404])
    static let checkInCode = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/check-in-code", operationID: "checkInCode",
                                              summary: "The rotating check-in code to show (the meetup's host or an admin).", tag: "check-in",
                                              answers: [ok("The current code and when it expires; the previous code is accepted for one more step.", "CheckInCode")],
                                              problems: [400, 403, 404, 409])
    static let joinMeetup = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/join", operationID: "joinMeetup", summary: "Join a meetup.", tag: "attendance",
                                             description: "`going` while there is a place and nobody waits, otherwise `waitlisted` at the back of the line.",
                                             answers: [created("Joined now.", "Attendance"), ok("Already attending; nothing changed.", "Attendance")],
                                             problems: [400, 404, 409])
    static let leaveMeetup = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/leave", operationID: "leaveMeetup", summary: "Leave a meetup.", tag: "attendance",
                                              description: "When a going member leaves, the first waitlisted members are promoted in the same transaction.",
                                              answers: [ok("Left.", "LeaveResult")], problems: [400, 404, 409])
    static let myAttendance = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/attendance", operationID: "myAttendance",
                                               summary: "The caller's attendance of a meetup.", tag: "attendance",
                                               answers: [ok("The attendance.", "Attendance")], problems: [400, 404])
    static let checkIn = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/check-in", operationID: "checkIn", summary: "Check in.", tag: "check-in",
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
                                          problems: [400, 403, 404, 409, 413, 415, 422])
    static let myRewards = OpenAPIOperation(method: .get, path: "/v1/me/rewards", operationID: "myRewards", summary: "The caller's rewards, newest first.", tag: "rewards",
                                            queryParameters: [OpenAPIOperation.query("include_revoked", Schema.boolean, "Also list rewards whose check-in was undone."),
                                                              OpenAPIOperation.limit(20, 200), OpenAPIOperation.cursor],
                                            answers: [ok("A page of rewards.", "RewardList")], problems: [400])
    static let getReward = OpenAPIOperation(method: .get, path: "/v1/rewards/{id}", operationID: "getReward",
                                            summary: "One reward (its member, its meetup's host, or an admin).", tag: "rewards",
                                            answers: [ok("The reward; `render_status` says whether its images are ready.", "Reward")], problems: [400, 403, 404])
    static let stickerImage = OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/sticker/{hash}.png", operationID: "stickerImage",
                                               summary: "The reward's sticker PNG (transparent outside its rounded corners).", tag: "rewards",
                                               headerParameters: [ifNoneMatch],
                                               answers: [immutableImage("image/png"), inBucket, pending, notModified], problems: [400, 403, 404, 409, 503])
    static let storyImagePNG = OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/story/{hash}.png", operationID: "storyImagePNG",
                                                summary: "The reward's 1080x1920 story image.", tag: "rewards", headerParameters: [ifNoneMatch],
                                                answers: [immutableImage("image/png"), inBucket, pending, notModified], problems: [400, 403, 404, 409, 503])
    static let storyImageJPEG = OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/story/{hash}.jpg", operationID: "storyImageJPEG",
                                                 summary: "The reward's 1080x1920 story image, when the server stores stories as JPEG.", tag: "rewards",
                                                 headerParameters: [ifNoneMatch],
                                                 answers: [immutableImage("image/jpeg"), inBucket, pending, notModified], problems: [400, 403, 404, 409, 503])
    static let storiesBackgroundPNG = OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/stories-background/{hash}.png", operationID: "storiesBackgroundPNG",
                                                       summary: "The Stories background layer of the reward's colours (no sticker), as the share payload links it.",
                                                       tag: "rewards", headerParameters: [ifNoneMatch],
                                                       answers: [immutableImage("image/png"), notModified], problems: [403, 404])
    static let sharePayload = OpenAPIOperation(method: .get, path: "/v1/rewards/{id}/share", operationID: "sharePayload",
                                               summary: "Everything the app needs to share the reward, per target.", tag: "sharing",
                                               description: "A target that cannot work now says `available: false` with a `reason`: `render_pending`, `render_failed`, `reward_revoked`, or a missing App ID (`instagram_app_id_missing`, `facebook_app_id_missing`). Asking never publishes the reward's public page: `share_sheet.link` is its address once its member published it (`page_published`), and until then the member gets `publish_url`, where a POST publishes it.",
                                               answers: [ok("The share payload.", "SharePayload")], problems: [400, 403, 404])
    static let publishSharePage = OpenAPIOperation(method: .post, path: "/v1/rewards/{id}/share-page", operationID: "publishSharePage",
                                                   summary: "Publish the reward's public page, `/s/{slug}` (the reward's member).", tag: "sharing",
                                                   description: "Anyone with the link then sees the hold, its place and date, the club, the sticker and a link-preview card, and the member's display name only when their share preference shows it (`shows_name`; `PUT /v1/me/share-preferences`). Idempotent: publishing a published page answers 200 with the same address. A page taken down stays gone; publishing again gives a new address. 409 `reward_revoked` for a revoked reward.",
                                                   answers: [created("Published.", "SharePage"), ok("Already published; the same page.", "SharePage")],
                                                   problems: [400, 403, 404, 409])
    static let unpublishSharePage = OpenAPIOperation(method: .delete, path: "/v1/rewards/{id}/share-page", operationID: "unpublishSharePage",
                                                     summary: "Take the reward's public page down (its member, or an admin).", tag: "sharing",
                                                     description: "Its link answers 410 Gone from then on, here at once and through caches within 30 seconds. Taking down a page that is not published is harmless.",
                                                     answers: [Answer(status: 204, description: "Not published (any more).", schema: nil)], problems: [400, 403, 404])
    static let recordShareEvent = OpenAPIOperation(method: .post, path: "/v1/rewards/{id}/share-events", operationID: "recordShareEvent",
                                                   summary: "Report a share (the reward's member).", tag: "sharing",
                                                   description: "A retry with a `client_event_id` used before records nothing and answers 200 with the first event.",
                                                   requestBody: "ShareEventRequest",
                                                   answers: [created("Recorded.", "ShareEvent"), ok("Seen before; the first event.", "ShareEvent")],
                                                   problems: [400, 403, 404, 409, 413, 415, 422])
    static let shareStatistics = OpenAPIOperation(method: .get, path: "/v1/stats/shares", operationID: "shareStatistics",
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
                                                  answers: [ok("A page of statistics, by meetup, day and target.", "ShareStatisticList")], problems: [400, 403, 404])
    static let sharePage = OpenAPIOperation(method: .get, path: "/s/{slug}", operationID: "sharePage",
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
                                                      Answer(status: 410, description: "The reward was revoked, or its member took the page down.", schema: Schema.string, contentType: "text/html")])
    static let sharePageSticker = OpenAPIOperation(method: .get, path: "/s/{slug}/sticker.png", operationID: "sharePageSticker",
                                                   summary: "The sticker of a shared reward (public, no token).", tag: "share pages", isPublic: true,
                                                   headerParameters: [ifNoneMatch],
                                                   answers: [Answer.bytes("The sticker PNG, cacheable for 30 seconds.", contentType: "image/png"),
                                                             inBucket, notModified],
                                                   problems: [404, 410, 503])
    static let sharePageCard = OpenAPIOperation(method: .get, path: "/s/{slug}/card.png", operationID: "sharePageCard",
                                                summary: "The 1200x630 link-preview card of a shared reward (`og:image`; public, no token).",
                                                tag: "share pages", isPublic: true, headerParameters: [ifNoneMatch],
                                                answers: [Answer.bytes("The card PNG, cacheable for 30 seconds.", contentType: "image/png"),
                                                          notModified],
                                                problems: [404, 410, 503])
    static let sharePageStylesheet = OpenAPIOperation(method: .get, path: "/assets/share-page.css", operationID: "sharePageStylesheet",
                                                      summary: "The share pages' stylesheet.", tag: "share pages", isPublic: true,
                                                      answers: [Answer(status: 200, description: "CSS.", schema: Schema.string, contentType: "text/css")])
    static let appleAppSiteAssociation = OpenAPIOperation(method: .get, path: "/.well-known/apple-app-site-association", operationID: "appleAppSiteAssociation",
                                                          summary: "Universal Links: share pages open the club's iOS app (`app_links.ios_app_ids`).",
                                                          tag: "share pages", isPublic: true,
                                                          answers: [Answer(status: 200, description: "`applinks` in the `components` format.", schema: ["type": "object"])],
                                                          problems: [404])
    static let assetLinks = OpenAPIOperation(method: .get, path: "/.well-known/assetlinks.json", operationID: "assetLinks",
                                             summary: "Android App Links: share pages open the club's Android app (`app_links.android_*`).",
                                             tag: "share pages", isPublic: true,
                                             answers: [Answer(status: 200, description: "The Digital Asset Links statements (one, for the club's app).",
                                                              schema: Schema.array(of: Schema.ref("AssetLinkStatement")))],
                                             problems: [404])
    static let publicHoldArtwork = OpenAPIOperation(method: .get, path: "/holds/{hold_id}/artwork.png", operationID: "publicHoldArtwork",
                                                    summary: "A hold's artwork without a token: the image of the badges that award it.", tag: "badges",
                                                    isPublic: true, headerParameters: [ifNoneMatch],
                                                    answers: [Answer.bytes("The PNG.", contentType: "image/png"), notModified],
                                                    problems: [404])
    static let badgeIssuer = OpenAPIOperation(method: .get, path: "/issuer", operationID: "badgeIssuer",
                                              summary: "The club as an Open Badges 3.0 issuer: its profile and every badge key it has used (no token).",
                                              tag: "badges", isPublic: true,
                                              answers: [Answer(status: 200, description: "The issuer profile with `publicKeys` (JWKs, each with its `kid`).",
                                                               schema: ["type": "object"])],
                                              problems: [404])
    static let badgeKey = OpenAPIOperation(method: .get, path: "/issuer/keys/{thumbprint}", operationID: "badgeKey",
                                           summary: "One badge key by its JWK thumbprint: the `kid` of badges signed with it (no token).",
                                           tag: "badges", isPublic: true,
                                           answers: [Answer(status: 200, description: "The public key as a JWK.", schema: ["type": "object"])],
                                           problems: [404])
    static let badgeRevocations = OpenAPIOperation(method: .get, path: "/badges/status/{thumbprint}", operationID: "badgeRevocations",
                                                   summary: "Revoked badges: a Bitstring Status List credential signed with the key of this thumbprint (VC-JWT; bit N is reward N; no token).",
                                                   tag: "badges", isPublic: true,
                                                   answers: [Answer.bytes("The compact JWT (ASCII).", contentType: "application/vc+jwt")],
                                                   problems: [404])
    static let sharePreferences = OpenAPIOperation(method: .get, path: "/v1/me/share-preferences", operationID: "sharePreferences",
                                                   summary: "What the caller's share pages show.", tag: "share pages",
                                                   answers: [ok("The preferences.", "SharePreferences")])
    static let setSharePreferences = OpenAPIOperation(method: .put, path: "/v1/me/share-preferences", operationID: "setSharePreferences",
                                                      summary: "Choose what the caller's share pages show (their display name or not).", tag: "share pages",
                                                      requestBody: "SharePreferences",
                                                      answers: [ok("The preferences now.", "SharePreferences")], problems: [400, 415, 422])
    static let myCollection = OpenAPIOperation(method: .get, path: "/v1/me/collection.png", operationID: "myCollection",
                                               summary: "The caller's whole hold collection as one tall PNG.", tag: "collections",
                                               queryParameters: [OpenAPIOperation.query("scale", ["type": "integer", "enum": [1, 2, 3], "default": 2], "1x, 2x or 3x.")],
                                               headerParameters: [ifNoneMatch],
                                               answers: [Answer.bytes("The PNG; revalidate with its ETag.", contentType: "image/png"), notModified],
                                               problems: [400, 503])
    static let memberCollection = OpenAPIOperation(method: .get, path: "/v1/users/{id}/collection.png", operationID: "memberCollection",
                                                   summary: "A member's collection (hosts and admins).", tag: "collections",
                                                   queryParameters: [OpenAPIOperation.query("scale", ["type": "integer", "enum": [1, 2, 3], "default": 2], "1x, 2x or 3x.")],
                                                   headerParameters: [ifNoneMatch],
                                                   answers: [Answer.bytes("The PNG; revalidate with its ETag.", contentType: "image/png"), notModified],
                                                   problems: [400, 403, 404, 503])
}
