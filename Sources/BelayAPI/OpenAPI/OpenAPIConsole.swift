import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let consoleSchemas: [String: JSONValue] = [
        "ConsoleDoorState": Schema.object([
            "version": Schema.string("Changes whenever a row or a count does."),
            "counts": Schema.string("\"12 of 20 checked in · …\", in the member's language."),
            "checked_in": Schema.integer,
            "going": Schema.integer,
            "query": Schema.string("The search the rows are for (empty: everyone); a form's answer is for everyone's first page."),
            "page": Schema.integer,
            "rows_html": Schema.string("The rows of that search's page as HTML, every value escaped."),
            "pager_html": Schema.string("Where the page is among the matching rows, with links to its neighbours, as HTML; empty when one page holds them all."),
            "error": Schema.string("Why the form was refused, in words; only on a refusal."),
        ], optional: ["error"]),
    ]
}

/// The console's pages (HTML for a browser, not API operations) and the front door,
/// listed so that the document names every route the server answers. They take no bearer
/// token: the console's pages read the `belay_console` cookie a sign-in on
/// `/console/sign-in` sets, and send anyone without one to that page.
extension Operations {
    private static func html(_ status: Int, _ description: String) -> Answer { Answer(status: status, description: description, schema: Schema.string, contentType: "text/html") }
    private static let seeOther = Answer(status: 303, description: "Done, or not signed in: `Location` names the page to go to (the sign-in page without a live session cookie).",
                          schema: nil, headers: ["Location": ["schema": Schema.string, "description": "Where to go next."]])
    private static let cookie = "Needs the `belay_console` cookie of a console sign-in; without a live one the answer is 303 to `/console/sign-in`."
    private static let form = "An HTML form (`application/x-www-form-urlencoded`) carrying `csrf`, the token of the page it came from; a form without it changes nothing (403 page)."
    private static func page(_ method: HTTPMethod, _ path: String, _ id: String, _ summary: String, query: [JSONValue] = [], answers: [Answer]) -> OpenAPIOperation {
        var answers = answers
        if method == .post && !answers.contains(where: { $0.status == 403 }) {
            answers.append(html(403, "The form's token is not the session's (an old page, or another site's form): nothing changed."))
        }
        return OpenAPIOperation(method: method, path: path, operationID: id, summary: summary, tag: "console",
                         description: path.hasPrefix("/console/sign-in") ? form : (method == .post ? cookie + " " + form : cookie),
                         isPublic: true, queryParameters: query, answers: answers)
    }
    private static let notYours = html(404, "No such meetup, or one the member does not manage (the same page).")
    private static let actionAnswers = [seeOther, html(409, "Refused (the door list again, with the reason on it)."),
                         html(422, "A bad value (the door list again, with the reason and what was typed)."), notYours,
                         Answer(status: 200, description: "With `Accept: application/json` (the page's script): the door list's new state.",
                                schema: Schema.ref("ConsoleDoorState"))]
    private static let doorView = [OpenAPIOperation.query("q", Schema.string, "Shows only members whose name or handle holds this text (any case)."),
                    OpenAPIOperation.query("page", Schema.integer, "Which page of 50 rows, from 1 (default 1; past the end, the last).")]
    private static let asset = "The version the page names (a digest of the content); any value gets the current one."

    static let frontDoor = OpenAPIOperation(method: .get, path: "/", operationID: "frontDoor", summary: "The front door: the club's name and links to the console, the API document and the health checks.",
                                            tag: "console", isPublic: true, answers: [html(200, "The page.")])
    static let readableAPIDocument = OpenAPIOperation(method: .get, path: "/openapi.html", operationID: "readableAPIDocument", summary: "This document as a readable HTML page, drawn by the server (no script).",
                                                      tag: "console", isPublic: true, answers: [html(200, "The page.")])
    static let consoleScript = OpenAPIOperation(method: .get, path: "/assets/console.js", operationID: "consoleScript", summary: "The console's script.", tag: "console", isPublic: true,
                                                queryParameters: [OpenAPIOperation.query("v", Schema.string, asset)],
                                                answers: [Answer(status: 200, description: "JavaScript.", schema: Schema.string, contentType: "text/javascript")])
    static let consoleStylesheet = OpenAPIOperation(method: .get, path: "/assets/console.css", operationID: "consoleStylesheet", summary: "The console's stylesheet.", tag: "console", isPublic: true,
                                                    queryParameters: [OpenAPIOperation.query("v", Schema.string, asset)],
                                                    answers: [Answer(status: 200, description: "CSS.", schema: Schema.string, contentType: "text/css")])
    static let consoleSignInPage = page(.get, "/console/sign-in", "consoleSignInPage", "The console's sign-in page (an email address, then the mailed code).",
                                        answers: [html(200, "The form; sets the `belay_console_pre` cookie its token comes from."), seeOther])
    static let consoleSendCode = page(.post, "/console/sign-in", "consoleSendCode", "Mails a sign-in code, as `POST /v1/auth/email` does (the same limits).",
                                      answers: [html(200, "The form for the code."), html(403, "Sign-in by email is off, or the form's token is wrong."),
                                                html(422, "Not an email address (shown on the form)."), html(429, "Too many codes (shown on the form).")])
    static let consoleVerifyCode = page(.post, "/console/sign-in/code", "consoleVerifyCode", "Signs in with the mailed code: a new session (listed in `GET /v1/me/sessions`) in a new `belay_console` cookie; for an account with a second factor, the form for its code instead (no session yet).",
                                        answers: [seeOther, html(200, "The account has a second factor: the form for its code, and the `belay_console_held` cookie naming the held sign-in."),
                                                  html(401, "A wrong or spent code (shown on the form, with what was typed)."),
                                                  html(403, "A suspended account, a closed club, or the form's token is wrong."), html(422, "Not six digits."),
                                                  html(429, "Too many tries.")])
    static let consoleSecondFactorPage = page(.get, "/console/sign-in/second-factor", "consoleSecondFactorPage", "The form for the second factor of a held sign-in (the `belay_console_held` cookie).",
                                              answers: [html(200, "The form."), seeOther])
    static let consoleVerifySecondFactor = page(.post, "/console/sign-in/second-factor", "consoleVerifySecondFactor", "Lets a held sign-in through with the authenticator's current code (each step's code works once) or a recovery code (spent): a new session in a new `belay_console` cookie.",
                                                answers: [seeOther, html(401, "A wrong or already used code (shown on the form, with what was typed), or a held sign-in that expired or had too many wrong codes (the email step again)."),
                                                          html(403, "The form's token is wrong."), html(429, "Too many tries.")])
    static let consoleSignOut = page(.post, "/console/sign-out", "consoleSignOut", "Ends the console's session in the store (a copy of the cookie stops working too).",
                                     answers: [seeOther, html(403, "The form's token is wrong.")])
    static let consoleMeetups = page(.get, "/console", "consoleMeetups", "The member's meetups (an admin's: every meetup), 50 a page, with going, capacity, waitlist and checked in.",
                                     query: [OpenAPIOperation.query("scope", Schema.enumeration(["upcoming", "past"]), "Which meetups; `upcoming` by default."),
                                             OpenAPIOperation.query("cursor", Schema.string, "The next page, from the page's own link (one that is not this list's shows the first page).")],
                                     answers: [html(200, "The page."), seeOther])
    static let consoleNewMeetupPage = page(.get, "/console/meetups/new", "consoleNewMeetupPage", "The form for a new meetup.", answers: [html(200, "The page."), seeOther])
    static let consoleCreateMeetup = page(.post, "/console/meetups", "consoleCreateMeetup", "Creates a meetup as `POST /v1/meetups` does.",
                                          answers: [seeOther, html(403, "Not allowed to create meetups, or the form's token is wrong."),
                                                    html(422, "A bad value (the form again, with the reason beside the field and what was typed).")])
    static let consoleEditMeetupPage = page(.get, "/console/meetups/{id}/edit", "consoleEditMeetupPage", "The form of a meetup's changes, as it is now.",
                                            answers: [html(200, "The page."), notYours, seeOther])
    static let consoleEditMeetup = page(.post, "/console/meetups/{id}/edit", "consoleEditMeetup", "Changes a meetup as `PATCH /v1/meetups/{id}` does.",
                                        answers: [seeOther, notYours, html(409, "Refused (shown on the form, with what was typed)."),
                                                  html(422, "A bad value (the form again, with the reason beside the field and what was typed).")])
    static let consoleDoorList = page(.get, "/console/meetups/{id}", "consoleDoorList", "A meetup's door list, 50 members a page: search, check in, undo, add, remove; the kiosk and the CSV.",
                                      query: doorView,
                                      answers: [html(200, "The page."), notYours, seeOther])
    static let consoleDoorState = page(.get, "/console/meetups/{id}/door.json", "consoleDoorState", "The door list's state, for the page's script: the counts and the rows of one view.",
                                       query: doorView,
                                       answers: [Answer(status: 200, description: "The counts and the rows.", schema: Schema.ref("ConsoleDoorState")), notYours, seeOther])
    static let consoleAttendeesCSV = page(.get, "/console/meetups/{id}/attendees.csv", "consoleAttendeesCSV", "The attendees as `GET /v1/meetups/{id}/attendees.csv` gives them.",
                                          answers: [Answer(status: 200, description: "RFC 4180 CSV.", schema: Schema.string, contentType: "text/csv"), notYours, seeOther])
    static let consoleCheckIn = page(.post, "/console/meetups/{id}/check-in", "consoleCheckIn", "Checks a member (`user_id`) in as their host.", answers: actionAnswers)
    static let consoleUndoCheckIn = page(.post, "/console/meetups/{id}/undo-check-in", "consoleUndoCheckIn", "Undoes a member's (`user_id`) check-in.", answers: actionAnswers)
    static let consoleAddAttendee = page(.post, "/console/meetups/{id}/add", "consoleAddAttendee", "Adds a member by `handle`.", answers: actionAnswers)
    static let consoleRemoveAttendee = page(.post, "/console/meetups/{id}/remove", "consoleRemoveAttendee", "Takes a member (`user_id`) off the meetup.", answers: actionAnswers)
    static let consoleKioskLink = page(.post, "/console/meetups/{id}/kiosk", "consoleKioskLink", "Makes a kiosk link and shows it with its QR code, once.",
                                       answers: [html(200, "The door list with the link."), html(409, "Refused (check-in is over, the meetup is cancelled)."), notYours, seeOther])
    static let consoleKioskOff = page(.post, "/console/meetups/{id}/kiosk/off", "consoleKioskOff", "Turns off every kiosk link of the meetup.",
                                      answers: [html(200, "The door list, saying so."), notYours, seeOther])
    static let consoleCancelMeetup = page(.post, "/console/meetups/{id}/cancel", "consoleCancelMeetup", "Cancels the meetup as `POST /v1/meetups/{id}/cancel` does.",
                                          answers: [seeOther, html(409, "Refused (the door list, with the reason)."), notYours])
    static let consoleShareCharts = page(.get, "/console/meetups/{id}/shares", "consoleShareCharts", "A meetup's shares by day and by target: bar charts drawn as SVG on the server, each with its numbers in a table.",
                                         answers: [html(200, "The page."), notYours, seeOther])
    static let consoleSecondFactor = page(.get, "/console/second-factor", "consoleSecondFactor", "The member's second factor: set up an authenticator app (its secret as a QR code and as text), or how many recovery codes are left.",
                                          query: [OpenAPIOperation.query("recovery_codes_left", Schema.integer, "After a sign-in with a recovery code: how many are left, said on the page.")],
                                          answers: [html(200, "The page."), seeOther])
    static let consoleStartSecondFactor = page(.post, "/console/second-factor/start", "consoleStartSecondFactor", "Makes a new authenticator secret to confirm (replacing one never confirmed).",
                                               answers: [seeOther, html(422, "The member already has an authenticator (an admin resets it first).")])
    static let consoleConfirmSecondFactor = page(.post, "/console/second-factor/confirm", "consoleConfirmSecondFactor", "Confirms the new secret with the app's current `code`; the answer shows the ten recovery codes, once.",
                                                 answers: [html(200, "The recovery codes."), html(401, "Not the app's current code (shown on the form, with what was typed)."),
                                                           html(422, "No secret waits to be confirmed."), seeOther])
    static let consoleNewRecoveryCodes = page(.post, "/console/second-factor/recovery-codes", "consoleNewRecoveryCodes", "Ten new recovery codes for the authenticator's current `code` (each step's code works once); the old ones, spent or not, stop working. The answer shows the new ones, once.",
                                              answers: [html(200, "The new recovery codes."), html(401, "Not the app's current code, or one already used (shown on the form, with what was typed)."),
                                                        html(422, "The member has no authenticator."), seeOther])
    static let consoleInvites = page(.get, "/console/invites", "consoleInvites", "Invite codes (hosts: their own; admins: everyone's) and the form for a new one.",
                                     answers: [html(200, "The page."), html(404, "A member who is not a host (the page that does not exist)."), seeOther])
    static let consoleCreateInvite = page(.post, "/console/invites", "consoleCreateInvite", "Makes an invite code (`uses`, `days`) as `POST /v1/invites` does.",
                                          answers: [html(201, "The list with the new code."), html(422, "A bad value (shown beside the field, with what was typed)."),
                                                    html(404, "Not a host."), seeOther])
    static let consoleRevokeInvite = page(.post, "/console/invites/{id}/revoke", "consoleRevokeInvite", "Revokes an invite as `DELETE /v1/invites/{id}` does.",
                                          answers: [seeOther, html(404, "No such invite of the member's.")])
    static let consoleWebhooks = page(.get, "/console/webhooks", "consoleWebhooks", "Webhook endpoints and the form for a new one (admins).",
                                      answers: [html(200, "The page."), html(404, "Not an admin."), seeOther])
    static let consoleAddWebhook = page(.post, "/console/webhooks", "consoleAddWebhook", "Registers an endpoint (`url`, `description`, `events`) as `POST /v1/webhooks` does; the answer shows its secret, once.",
                                        answers: [html(201, "The endpoint with its secret."), html(422, "A bad value (shown beside the field, with what was typed)."),
                                                  html(404, "Not an admin."), seeOther])
    static let consoleWebhook = page(.get, "/console/webhooks/{id}", "consoleWebhook", "An endpoint and its 50 latest deliveries, each done one with a button to send it again (admins).",
                                     answers: [html(200, "The page."), html(404, "No such endpoint, or not an admin."), seeOther])
    static let consoleRemoveWebhook = page(.post, "/console/webhooks/{id}/remove", "consoleRemoveWebhook", "Removes an endpoint as `DELETE /v1/webhooks/{id}` does.",
                                           answers: [seeOther, html(404, "No such endpoint, or not an admin.")])
    static let consoleRedeliverWebhook = page(.post, "/console/webhooks/{id}/deliveries/{delivery_id}/redeliver", "consoleRedeliverWebhook",
                                              "Sends a delivery again as `POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver` does.",
                                              answers: [html(200, "The endpoint, saying so."), html(422, "The endpoint is disabled (shown on the page)."),
                                                        html(404, "No such endpoint or delivery, or not an admin."), seeOther])
    static let consoleMemberDevices = page(.get, "/console/members/{id}/devices", "consoleMemberDevices", "A member's push devices (admins), with a button for a test notice.",
                                           answers: [html(200, "The page."), html(404, "No such member, or not an admin."), seeOther])
    static let consoleTestNotice = page(.post, "/console/members/{id}/devices/test", "consoleTestNotice", "Queues a test notice to each of the member's devices (admins), as `belay push test` does.",
                                        answers: [html(200, "The devices, saying how many were told."), html(404, "No such member, or not an admin."), seeOther])
    static let consoleCohosts = page(.get, "/console/meetups/{id}/cohosts", "consoleCohosts", "A meetup's co-hosts; for its host and admins, the forms to add one by handle and remove one.",
                                     answers: [html(200, "The page."), notYours, seeOther])
    static let consoleAddCohost = page(.post, "/console/meetups/{id}/cohosts", "consoleAddCohost", "Adds a co-host by `handle` as `POST /v1/meetups/{id}/cohosts` does (the host and admins).",
                                       answers: [html(200, "The co-hosts, saying so."), html(403, "The member named is not a host, or the form's token is wrong (shown on the form)."),
                                                 html(404, "No such meetup or member the caller may see (a member's handle is shown on the form), or not its host."),
                                                 html(409, "The meetup is cancelled or over."), html(422, "The host themself (shown on the form)."), seeOther])
    static let consoleRemoveCohost = page(.post, "/console/meetups/{id}/cohosts/{user_id}/remove", "consoleRemoveCohost", "Takes a co-host's rights away as `DELETE /v1/meetups/{id}/cohosts/{user_id}` does.",
                                          answers: [seeOther, notYours])
    static let consoleServer = page(.get, "/console/server", "consoleServer", "The server at a glance (admins): what /readyz checks and what /metrics says of the queues and traffic, in words.",
                                    answers: [html(200, "The page."), html(404, "Not an admin."), seeOther])
    static let consoleReportQueue = page(.get, "/console/moderation", "consoleReportQueue", "The moderators' queue: subjects with open reports, the longest waiting first, with a form to act.",
                                         answers: [html(200, "The page."), html(404, "Not a moderator (the page that does not exist)."), seeOther])
    static let consoleModerate = page(.post, "/console/moderation/actions", "consoleModerate", "Acts on a subject as `POST /v1/moderation/actions` does (dismiss, hide, warn, suspend, lift).",
                                      answers: [seeOther, html(404, "Not a moderator, or no such subject."), html(409, "Refused (shown on the form)."),
                                                html(422, "A bad value (shown on the form, with what was typed).")])
    static let consoleAuditLog = page(.get, "/console/moderation/audit", "consoleAuditLog", "The moderation log, newest first.",
                                      answers: [html(200, "The page."), html(404, "Not a moderator."), seeOther])
    static let consoleResetSecondFactor = page(.post, "/console/members/{id}/second-factor/reset", "consoleResetSecondFactor", "Removes a member's authenticator and recovery codes (admins), as `belay users reset-second-factor` does, with an optional `reason`; written to the audit log as `reset_second_factor`.",
                                               answers: [html(200, "The members page (`q`), saying so."), html(404, "No such member, or not an admin."),
                                                         html(422, "A reason that is too long (shown on the page)."), seeOther])
    static let consoleMembers = page(.get, "/console/members", "consoleMembers", "Members by name or handle, each with the form to suspend or lift (moderators) and, for admins, whether they have a second factor and the form to reset it.",
                                     query: [OpenAPIOperation.query("q", Schema.string, "Part of a name or handle.")],
                                     answers: [html(200, "The page."), html(404, "Not a moderator."), seeOther])
    static let consoleGyms = page(.get, "/console/gyms", "consoleGyms", "The gyms the member manages (an admin: every gym).", answers: [html(200, "The page."), seeOther])
    static let consoleGym = page(.get, "/console/gyms/{id}", "consoleGym", "A gym: its details, circuit and current set by wall; the forms for a new set and retiring a wall.",
                                 answers: [html(200, "The page."), html(404, "No such gym, or one the member does not manage."), seeOther])
    static let consoleProblemSet = page(.post, "/console/gyms/{id}/sets", "consoleProblemSet", "A set file: `step=preview` reads it without writing (every row, new or not, and every row's error); `step=write` adds it as `POST /v1/gyms/{id}/problem-sets` does.",
                                        answers: [html(200, "The preview, or the gym with the set added."), html(422, "Rows with errors (each with its line), the file kept."),
                                                  html(404, "No such gym, or one the member does not manage."), seeOther])
    static let consoleRetireWall = page(.post, "/console/gyms/{id}/retirements", "consoleRetireWall", "Retires every current problem on a wall.",
                                        answers: [html(200, "The gym, saying how many."), html(422, "A bad value (shown on the form)."), html(404, "No such gym, or one the member does not manage."), seeOther])
    static let consoleSeriesList = page(.get, "/console/series", "consoleSeriesList", "The recurring series whose first meetup the member hosts or co-hosts (an admin: every series), the latest first.",
                                        answers: [html(200, "The page."), seeOther])
    static let consoleNewSeries = page(.get, "/console/series/new", "consoleNewSeries", "The form of a weekly series: a weekday, a start and end time, a number of weeks, at a gym or a place.",
                                       answers: [html(200, "The page."), seeOther])
    static let consoleCreateSeries = page(.post, "/console/series", "consoleCreateSeries",
                                          "Makes a weekly series as `POST /v1/meetups/series` does: `weekday` (1 Sunday … 7 Saturday), `start_time` and `end_time` (`19:00`), `weeks` (2–104), `title`, `gym_id` or `place_name`, `time_zone`, `capacity`; the first meetup is on the next such weekday still to come.",
                                          answers: [seeOther, html(422, "A bad value (shown beside the field, with what was typed)."), html(404, "Not a host.")])
    static let consoleSeries = page(.get, "/console/series/{id}", "consoleSeries", "A series (its id is its first meetup's): its meetups and the form to cancel the rest of it.",
                                    query: [OpenAPIOperation.query("cancelled", Schema.integer, "How many meetups a cancellation just cancelled, said on the page.")],
                                    answers: [html(200, "The page."), html(404, "No such series, or one the member does not manage."), seeOther])
    static let consoleCancelRestOfSeries = page(.post, "/console/series/{id}/cancel-rest", "consoleCancelRestOfSeries",
                                                "Cancels the meetup `from` and every later scheduled one of the series, as cancelling each does (those going and waiting are told).",
                                                answers: [seeOther, html(409, "The meetup chosen is no longer scheduled (shown on the form)."),
                                                          html(422, "`from` is no meetup of this series (shown on the form)."), html(404, "No such series, or one the member does not manage.")])
    static let consoleMeetupRewards = page(.get, "/console/meetups/{id}/rewards", "consoleMeetupRewards", "A meetup's rewards: who checked in, the hold they earned and a thumbnail of their sticker.",
                                           answers: [html(200, "The page."), notYours, seeOther])
    static let consoleStickerImage = OpenAPIOperation(method: .get, path: "/console/rewards/{id}/sticker/{hash}.png", operationID: "consoleStickerImage",
                                                      summary: "A reward's sticker for the console's pages, as `GET /v1/rewards/{id}/sticker/{hash}.png` serves it, to those who manage its meetup.",
                                                      tag: "console", description: cookie, isPublic: true,
                                                      answers: [Answer.bytes("The sticker; cache it forever (the URL changes when the image does).", contentType: "image/png"),
                                                                Answer(status: 302, description: "With `images.store = s3`: the sticker is at `Location`.", schema: nil,
                                                                       headers: ["Location": ["schema": Schema.string, "description": "Where the image's bytes are."]]),
                                                                Answer(status: 202, description: "The sticker is still being rendered.", schema: Schema.ref("RenderPending"),
                                                                       headers: ["Retry-After": ["schema": Schema.integer, "description": "Seconds to wait."]]),
                                                                Answer(status: 304, description: "The `If-None-Match` ETag is current.", schema: nil),
                                                                html(404, "No such reward or sticker, or one of a meetup the member does not manage (the same page)."), seeOther],
                                                      problems: [409, 503])
}
