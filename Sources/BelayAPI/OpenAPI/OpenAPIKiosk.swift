import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let kioskSchemas: [String: JSONValue] = [
        "KioskLink": Schema.object([
            "meetup_id": Schema.integer,
            "url": ["type": "string", "format": "uri", "description": "`https://<public_base_url>/k/{token}`: put it on the front desk tablet. Shown this once."],
            "valid_until": ["type": "string", "format": "date-time", "description": "When the meetup's check-in window closes (as the meetup is now)."],
        ]),
        "KioskRevocation": Schema.object(["meetup_id": Schema.integer, "revoked": Schema.integer("Links turned off now.")]),
        "KioskState": Schema.object([
            "status": Schema.enumeration(["open", "not_open"], description: "`open`: the code is shown; `not_open`: check-in has not opened yet."),
            "meetup_id": Schema.integer,
            "checked_in": Schema.integer("Members checked in."),
            "holding_a_place": Schema.integer("Members holding a place (going and checked in)."),
            "count_text": Schema.string("\"12 of 20 checked in\", in the club's language."),
            "code": Schema.nullable(["type": "string", "pattern": "^[0-9]{6}$"]),
            "code_display": Schema.nullable(Schema.string("The code as shown: `123 456`.")),
            "check_in_url": Schema.nullable(Schema.string("What the QR code holds: `https://<public_base_url>/c/{meetup_id}?code=DIGITS`.")),
            "qr": Schema.nullable(Schema.object([
                "side": Schema.integer("The drawing's side in modules, the four-module quiet zone included (its SVG viewBox)."),
                "path": Schema.string("The dark modules as an SVG path in module units (libqrencode, error correction Q)."),
            ])),
            "seconds_left": ["type": "number", "description": "Seconds until the next code, by the server's clock."],
            "step_seconds": Schema.integer("How long each code is current (0 before check-in opens)."),
            "opens_text": Schema.nullable(Schema.string("\"Check-in opens at 18:30\" before it opens; null after.")),
            "refresh_after_ms": Schema.integer("When to ask again."),
        ]),
        "AttendeeRequest": Schema.object(["user_id": Schema.id("The member; a host names only members they can see.")]),
        "AttendeeRemoval": Schema.object([
            "removed": Schema.ref("Attendee"),
            "promoted": Schema.array(of: Schema.ref("Attendee")),
        ]),
        "AttendanceRecord": Schema.object([
            "user_id": Schema.integer,
            "handle": Schema.string,
            "display_name": Schema.string,
            "joined": Schema.integer("Meetups joined and not left (going, waitlisted or checked in)."),
            "checked_in": Schema.integer("Meetups checked in to."),
            "no_shows": Schema.integer("Completed meetups where the member held a place and never checked in."),
        ]),
    ]

    /// The kiosk's problem codes.
    static let kioskProblemCodes: [(code: String, meaning: String)] = [
        ("kiosk_not_found", "404: no kiosk link has this token."),
        ("kiosk_revoked", "410: a host turned the kiosk link off."),
        ("kiosk_closed", "410: the meetup's check-in window has closed."),
        ("kiosk_cancelled", "410: the meetup was cancelled."),
    ]
}

/// The front-desk kiosk (its links, its page and state, the check-in link in its QR code)
/// and the host's tasks on attendees that `belay attendees` does on the command line.
extension Operations {
    private static func html(_ status: Int, _ description: String) -> Answer { Answer(status: status, description: description, schema: Schema.string, contentType: "text/html") }
    private static func attendee(_ status: Int, _ description: String) -> Answer { Answer(status: status, description: description, schema: Schema.ref("Attendee")) }
    private static let hidden = "A user the caller may not see (a host sees the members who joined one of their meetups) is answered exactly like an id no user has: 404 `user_not_found`."

    static let createKioskLink = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/kiosk", operationID: "createKioskLink",
                                                  summary: "A link to the front-desk check-in screen (the meetup's host, co-hosts and admins).", tag: "check-in",
                                                  description: """
                                                     Put the `url` on the front desk tablet (landscape) or a phone: `https://<public_base_url>/k/{token}` shows \
                                                     the meetup, the current check-in link as a large QR code with its six digits under it, a bar counting down \
                                                     to the next code, and how many of those holding a place have checked in, and moves on by itself. Before \
                                                     the check-in window opens it says when it will. The link is unguessable (256 random bits; only its SHA-256 \
                                                     is stored, so it is shown this once) and works until the check-in window closes, the meetup is cancelled, \
                                                     or a host revokes the meetup's links (`DELETE`). Each call makes another link; those made before keep working. \
                                                     409 `window_closed` once check-in is over, `meetup_cancelled`, `meetup_completed`.
                                                     """,
                                                  answers: [Answer(status: 201, description: "The new link.", schema: Schema.ref("KioskLink"),
                                                                   headers: ["Cache-Control": ["schema": Schema.string, "description": "`no-store`."]])],
                                                  problems: [403, 404, 409])
    static let revokeKioskLinks = OpenAPIOperation(method: .delete, path: "/v1/meetups/{id}/kiosk", operationID: "revokeKioskLinks",
                                                   summary: "Turn off every kiosk link of the meetup (its host, co-hosts and admins).", tag: "check-in",
                                                   description: "Their screens say so (410) at their next refresh, within a few seconds. Revoking when there is none is harmless.",
                                                   answers: [Answer(status: 200, description: "How many links were turned off now.", schema: Schema.ref("KioskRevocation"))],
                                                   problems: [403, 404])
    static let kioskPage = OpenAPIOperation(method: .get, path: "/k/{token}", operationID: "kioskPage",
                                            summary: "The front-desk check-in screen (HTML, no token; the link is the secret).", tag: "check-in",
                                            description: """
                                               Server-rendered HTML in the club's language for a landscape tablet and a phone. Its script \
                                               (`/assets/kiosk.js`, Belay's own) polls `/k/{token}/state` every two seconds and redraws the QR code, the \
                                               digits, the countdown and the count without a reload. `Content-Security-Policy` allows scripts, styles \
                                               and requests from the page's own origin only; never cached; `Referrer-Policy: no-referrer`.
                                               """,
                                            isPublic: true,
                                            answers: [html(200, "The screen: the code while check-in is open, when it opens before."),
                                                      html(404, "No kiosk link has this token."),
                                                      html(410, "The link was revoked, the check-in window closed, or the meetup was cancelled.")])
    static let kioskState = OpenAPIOperation(method: .get, path: "/k/{token}/state", operationID: "kioskState",
                                             summary: "What the kiosk screen shows now, for its script (no token; the link is the secret).", tag: "check-in",
                                             description: "Never cached. 404 `kiosk_not_found`; 410 `kiosk_revoked`, `kiosk_closed` or `kiosk_cancelled`, whose `title` and `detail` are the words the screen shows, in the club's language.",
                                             isPublic: true,
                                             answers: [Answer(status: 200, description: "The screen's state.", schema: Schema.ref("KioskState"))],
                                             problems: [404, 410])
    static let kioskScript = OpenAPIOperation(method: .get, path: "/assets/kiosk.js", operationID: "kioskScript",
                                              summary: "The kiosk screen's script.", tag: "check-in", isPublic: true,
                                              queryParameters: [OpenAPIOperation.query("v", Schema.string, "The version the page names (a digest of the content); any value gets the current one.")],
                                              answers: [Answer(status: 200, description: "JavaScript.", schema: Schema.string, contentType: "text/javascript")])
    static let kioskStylesheet = OpenAPIOperation(method: .get, path: "/assets/kiosk.css", operationID: "kioskStylesheet",
                                                  summary: "The kiosk screen's stylesheet.", tag: "check-in", isPublic: true,
                                                  queryParameters: [OpenAPIOperation.query("v", Schema.string, "The version the page names (a digest of the content); any value gets the current one.")],
                                                  answers: [Answer(status: 200, description: "CSS.", schema: Schema.string, contentType: "text/css")])
    static let checkInLinkPage = OpenAPIOperation(method: .get, path: "/c/{id}", operationID: "checkInLinkPage",
                                                  summary: "The check-in link in the kiosk's QR code, for a phone without the app (HTML, no token).", tag: "check-in",
                                                  description: """
                                                     `https://<public_base_url>/c/{meetup_id}?code=DIGITS`. Where the club's app is installed the system opens \
                                                     the app on it instead (`apple-app-site-association` and `assetlinks.json` cover `/c/*`), and the app \
                                                     checks the member in with `POST /v1/meetups/{id}/check-in` and that `code`. A browser gets this page: what \
                                                     the link does, and where to get the app. It reads nothing about the meetup.
                                                     """,
                                                  isPublic: true,
                                                  queryParameters: [OpenAPIOperation.query("code", ["type": "string", "pattern": "^[0-9]{6}$"], "The check-in code the QR code carried.")],
                                                  takesAnyQuery: true,
                                                  answers: [html(200, "The page.")])
    static let addAttendee = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/attendees", operationID: "addAttendee",
                                              summary: "Add a member to a meetup (its host, co-hosts and admins).", tag: "meetups",
                                              description: "As `belay attendees add`: `going` while there is room and nobody waits, else `waitlisted` at the back of the line; a member already attending stays as they are (200). One member per request. \(hidden)",
                                              requestBody: "AttendeeRequest",
                                              answers: [attendee(201, "Added now."), attendee(200, "Already attending; nothing changed.")],
                                              problems: [403, 404, 409, 413, 415, 422])
    static let removeAttendee = OpenAPIOperation(method: .delete, path: "/v1/meetups/{id}/attendees/{user_id}", operationID: "removeAttendee",
                                                 summary: "Take a member off a meetup; the waitlist moves up (its host, co-hosts and admins).", tag: "meetups",
                                                 description: "As `belay attendees remove`. A member who has checked in is refused (409 `already_checked_in`): undo the check-in first. \(hidden)",
                                                 answers: [Answer(status: 200, description: "The attendance, now `cancelled`, and those promoted from the waitlist.",
                                                                  schema: Schema.ref("AttendeeRemoval"))],
                                                 problems: [403, 404, 409])
    static let undoCheckIn = OpenAPIOperation(method: .post, path: "/v1/meetups/{id}/undo-check-in", operationID: "undoCheckIn",
                                              summary: "Undo a member's check-in; their reward is revoked (its host, co-hosts and admins).", tag: "check-in",
                                              description: "As `belay attendees undo-check-in`: the member is `going` again, the reward is revoked (kept, not deleted; a shared page of it says so) and checking in again reinstates it. \(hidden)",
                                              requestBody: "AttendeeRequest",
                                              answers: [attendee(200, "The attendance, `going` again.")],
                                              problems: [403, 404, 409, 413, 415, 422])
    static let listNoShows = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/no-shows", operationID: "listNoShows",
                                              summary: "Who held a place at a completed meetup and never checked in (its host, co-hosts and admins).", tag: "meetups",
                                              description: "In join order. 409 `meetup_not_completed` until the meetup is completed (its check-in window closed): until then they may still come.",
                                              queryParameters: [OpenAPIOperation.limit(50, 500), OpenAPIOperation.cursor],
                                              answers: [Answer(status: 200, description: "A page of no-shows (attendees still `going`).", schema: Schema.ref("AttendeeList"))],
                                              problems: [400, 403, 404, 409])
    static let attendanceRecord = OpenAPIOperation(method: .get, path: "/v1/users/{id}/attendance-record", operationID: "attendanceRecord",
                                                   summary: "A member's attendance record across the club (the hosts who may see them, admins, the member).", tag: "attendance",
                                                   description: hidden,
                                                   answers: [Answer(status: 200, description: "Meetups joined, checked in, and missed.", schema: Schema.ref("AttendanceRecord"))],
                                                   problems: [404])
}
