import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let accountSchemas: [String: JSONValue] = {
        let device: [(String, JSONValue)] = [
            ("device_name", Schema.text(.deviceName, "Shown in the member's list of sessions, e.g. `Jisoo's iPhone`.")),
            ("platform", Schema.enumeration(["ios", "android", "web", ""])),
            ("invite_code", ["type": "string", "maxLength": 64, "description": "Needed for a first sign-in when the club takes members by invite."]),
            ("locale", Schema.enumeration(MemberLocale.allCases.map(\.rawValue), description: "The new account's language.")),
        ]
        let deviceNames = Set(device.map(\.0))
        let nonEmpty: JSONValue = ["type": "string", "minLength": 1]
        let dateTime = Schema.dateTime
        return [
            "AppleSignInRequest": Schema.object(pairs: [
                ("identity_token", nonEmpty), ("nonce", nonEmpty),
                ("name", Schema.text(.signInName, "The name Apple gave the app (first sign-in only).", allowingEmpty: true)),
                ("authorization_code", ["type": "string", "description": "Exchanged for a refresh token Belay revokes at Apple when the member deletes their account."]),
            ] + device, optional: deviceNames.union(["name", "authorization_code"])),
            "GoogleSignInRequest": Schema.object(pairs: [("id_token", nonEmpty), ("nonce", Schema.string)] + device,
                                                 optional: deviceNames.union(["nonce"])),
            "EmailSignInRequest": Schema.object(pairs: [("email", ["type": "string", "format": "email", "maxLength": 254]),
                                                        ("locale", Schema.enumeration(MemberLocale.allCases.map(\.rawValue)))],
                                                optional: ["locale"]),
            "EmailVerifyRequest": ["anyOf": [Schema.ref("EmailCodeVerification"), Schema.ref("EmailLinkVerification")]],
            "EmailCodeVerification": Schema.object(pairs: [
                ("email", ["type": "string", "format": "email", "maxLength": 254]),
                ("code", ["type": "string", "pattern": "^[0-9]{6}$", "description": "The six digits from the mail."]),
            ] + device, optional: deviceNames, description: "The address and the code from the mail."),
            "EmailLinkVerification": Schema.object(pairs: [("link_token", nonEmpty)] + device, optional: deviceNames,
                                                   description: "The token of the mail's link."),
            "RefreshRequest": Schema.object(["refresh_token": nonEmpty]),
            "SecondFactorChallenge": Schema.object([
                "second_factor_required": ["type": "boolean", "enum": [true], "description": "Always true: tell the two answers of a sign-in apart by it (or by the status, 202)."],
                "challenge": Schema.string("Names the held sign-in; send it to `POST /v1/auth/second-factor`. Keep it in memory only."),
                "expires_at": dateTime,
                "expires_in": Schema.integer("Seconds the challenge works."),
                "methods": ["type": "array", "items": Schema.enumeration(["totp", "recovery_code"]), "description": "What `code` may be."],
            ]),
            "SecondFactorSignInRequest": Schema.object([
                "challenge": ["type": "string", "minLength": 1, "maxLength": 128],
                "code": ["type": "string", "minLength": 1, "maxLength": 64,
                         "description": "The authenticator's six digits (spaces allowed) or a recovery code (dashes and case ignored)."],
            ]),
            "EmailSent": Schema.object(["status": Schema.enumeration(["sent"]), "expires_in": Schema.integer("Seconds the code works.")]),
            "SessionGrant": Schema.object([
                "access_token": Schema.string("The bearer token for every other request."),
                "token_type": Schema.enumeration(["Bearer"]),
                "expires_in": Schema.integer("Seconds the access token works."),
                "refresh_token": Schema.string("Exchanged once at `POST /v1/auth/refresh`; keep it in the device's keychain."),
                "refresh_token_expires_at": dateTime,
                "session_id": Schema.integer,
                "account_created": Schema.boolean,
                "user": Schema.object(["id": Schema.integer, "handle": Schema.string, "display_name": Schema.string,
                                       "role": Schema.enumeration(Role.allCases.map(\.rawValue))]),
            ]),
            "ProfileRequest": Schema.object([
                "display_name": Schema.text(.displayName),
                "handle": ["type": "string", "pattern": .string(HandleRule.pattern), "description": .string("Unique after NFKC and case folding. Reserved, in any case: \(HandleRule.reserved.sorted().map { "`\($0)`" }.joined(separator: ", ")), and `deleted-…`.")],
                "locale": Schema.enumeration(MemberLocale.allCases.map(\.rawValue)),
                "show_name_on_share_pages": Schema.boolean,
            ], optional: ["display_name", "handle", "locale", "show_name_on_share_pages"]),
            "Profile": Schema.object([
                "id": Schema.integer, "handle": Schema.string, "display_name": Schema.string,
                "role": Schema.enumeration(Role.allCases.map(\.rawValue)),
                "email": Schema.nullable(Schema.string), "email_verified": Schema.boolean,
                "locale": Schema.nullable(Schema.enumeration(MemberLocale.allCases.map(\.rawValue))),
                "show_name_on_share_pages": Schema.boolean, "created_at": dateTime,
                "calendar_url": Schema.string("The caller's private calendar feed (RFC 5545) to subscribe to."),
                "progress": Schema.ref("Progress"),
                "moderator": ["type": "boolean", "description": "The caller works the report queue (`GET /v1/moderation/reports`): an admin or a moderator."],
                "terms_to_accept": Schema.nullable(Schema.object(["version": Schema.string, "url": Schema.nullable(Schema.string)],
                                                                 description: "The club's terms the caller must accept (`POST /v1/me/terms`) before changing anything; null when none.")),
            ], optional: ["calendar_url", "progress", "moderator", "terms_to_accept"]),
            "Session": Schema.object([
                "id": Schema.integer, "device_name": Schema.string, "platform": Schema.string,
                "sign_in_method": Schema.enumeration(SignInMethod.allCases.map(\.rawValue)),
                "created_at": dateTime, "last_used_at": dateTime, "expires_at": dateTime,
                "current": Schema.boolean,
            ]),
            "SessionList": Schema.object(["items": Schema.array(of: Schema.ref("Session"))]),
            "InviteRequest": Schema.object([
                "uses": ["type": "integer", "minimum": 1, "maximum": 10000, "description": "How many people it admits (1 when absent)."],
                "expires_in_days": ["type": "integer", "minimum": 1, "maximum": 365, "description": "Days it works (7 when absent)."],
            ], optional: ["uses", "expires_in_days"]),
            "Invite": Schema.object([
                "id": Schema.integer, "code": Schema.string, "link": Schema.uri, "max_uses": Schema.integer, "uses": Schema.integer,
                "expires_at": dateTime, "created_at": dateTime, "revoked_at": Schema.nullable(dateTime), "usable": Schema.boolean,
            ]),
            "InviteList": Schema.object(["items": Schema.array(of: Schema.ref("Invite"))]),
            "ExportedIdentity": Schema.object([
                "provider": Schema.enumeration(SignInMethod.allCases.map(\.rawValue)), "subject": Schema.string,
                "email": Schema.nullable(Schema.string), "created_at": dateTime, "last_used_at": dateTime,
            ]),
            "AccountExport": Schema.object([
                "format": Schema.enumeration(["belay-member-export/1"]), "exported_at": dateTime,
                "profile": Schema.ref("Profile"),
                "identities": Schema.array(of: Schema.ref("ExportedIdentity")),
                "sessions": Schema.array(of: Schema.ref("Session")),
                "attendances": Schema.array(of: Schema.ref("Attendance")),
                "rewards": Schema.array(of: Schema.ref("Reward")),
                "share_events": Schema.array(of: Schema.ref("ShareEvent")),
                "logbook_preferences": Schema.ref("LogbookPreferences"),
                "ticks": Schema.array(of: Schema.ref("Tick")),
                "reports": Schema.array(of: Schema.ref("Report")),
                "blocks": Schema.array(of: Schema.ref("BlockedMember")),
                "bans": Schema.array(of: Schema.ref("BlockedMember")),
                "terms_acceptances": Schema.array(of: Schema.ref("TermsAcceptance")),
            ]),
        ]
    }()
}

/// Signing in, sessions, the member's own account, and invites.
extension Operations {
    private static let grant = [Answer(status: 200, description: "Signed in to an existing account.", schema: Schema.ref("SessionGrant")),
                 Answer(status: 201, description: "Signed in to the account this sign-in created.", schema: Schema.ref("SessionGrant"))]
    // A sign-in of an account with a second factor answers no tokens yet, but a challenge.
    private static let signIn = grant + [Answer(status: 202, description: "The account has a second factor: no tokens yet. Send the challenge with the authenticator's code to `POST /v1/auth/second-factor`.",
                                 schema: Schema.ref("SecondFactorChallenge"))]
    private static let profile = Answer(status: 200, description: "The caller's account.", schema: Schema.ref("Profile"))
    private static let invite = Schema.ref("Invite")
    private static let signInProblems = [401, 403, 413, 415, 422, 429, 503]

    static let signInWithApple = OpenAPIOperation(method: .post, path: "/v1/auth/apple", operationID: "signInWithApple", summary: "Sign in with Apple.", tag: "accounts",
                                                  description: "Send the identity token Apple gave the app and the raw nonce the app generated (Apple puts its SHA-256 in the token). The first sign-in creates the account when the club's sign-up allows it; send `name` then, as Apple gives it only once. 401 codes: `bad_signature`, `algorithm_not_allowed`, `key_mismatch`, `unknown_key`, `wrong_issuer`, `wrong_audience`, `token_expired`, `issued_in_future`, `token_not_yet_valid`, `wrong_nonce`, `malformed_keys`, `token_already_used`; 422 `malformed_token`; 503 `keys_unavailable` with `Retry-After`. An account with a second factor answers 202 with a challenge instead of tokens (see `POST /v1/auth/second-factor`); an admin without one, where `console.admin_second_factor` is `required`, is refused 403 `second_factor_enrolment_required`.",
                                                  isPublic: true, requestBody: "AppleSignInRequest", answers: signIn, problems: signInProblems)
    static let signInWithGoogle = OpenAPIOperation(method: .post, path: "/v1/auth/google", operationID: "signInWithGoogle", summary: "Sign in with Google.", tag: "accounts",
                                                   description: "Send the ID token from Google Sign-In (and the nonce when the app set one). Refusals as for Apple, plus `wrong_authorized_party`. A second factor as for Apple: 202 with a challenge.",
                                                   isPublic: true, requestBody: "GoogleSignInRequest", answers: signIn, problems: signInProblems)
    static let sendEmailCode = OpenAPIOperation(method: .post, path: "/v1/auth/email", operationID: "sendEmailCode", summary: "Mail a sign-in code and link.", tag: "accounts",
                                                description: "Mails a 6-digit code and a link `<server>/auth/email/{token}` (a universal link the app opens) that work once for `accounts.email_code_minutes`. The answer is the same whether or not the address has an account.",
                                                isPublic: true, requestBody: "EmailSignInRequest",
                                                answers: [Answer(status: 202, description: "The mail is on its way.", schema: Schema.ref("EmailSent"))],
                                                problems: [403, 413, 415, 422, 429, 503])
    static let verifyEmailCode = OpenAPIOperation(method: .post, path: "/v1/auth/email/verify", operationID: "verifyEmailCode", summary: "Sign in with the mailed code or link.", tag: "accounts",
                                                  description: "Send `email` and `code`, or `link_token` from the link. A code works once; five wrong codes void it (401 `invalid_email_code`). A second factor as for Apple: 202 with a challenge.",
                                                  isPublic: true, requestBody: "EmailVerifyRequest", answers: signIn, problems: [401, 403, 413, 415, 422, 429])
    static let completeSecondFactor = OpenAPIOperation(method: .post, path: "/v1/auth/second-factor", operationID: "completeSecondFactor",
                                                       summary: "Finish a sign-in held for its second factor.", tag: "accounts",
                                                       description: "Send the `challenge` a sign-in answered (202, `second_factor_required`) and `code`: the authenticator app's current six digits (TOTP, RFC 6238: 30-second steps, one step either side accepted) or an unused recovery code (`k7m2q-x9tfa`, spent by this). The answer is the sign-in's own: the same tokens. Each step's code works once: a code given again is refused. 401 `invalid_second_factor_code` with `field: \"code\"` for a wrong or used code (try again); with `field: \"sign_in\"` when the challenge is unknown, expired (it lives `accounts.email_code_minutes`) or void after five wrong codes: sign in again from the start.",
                                                       isPublic: true, requestBody: "SecondFactorSignInRequest", answers: grant, problems: [401, 403, 413, 415, 422, 429])
    static let refreshSession = OpenAPIOperation(method: .post, path: "/v1/auth/refresh", operationID: "refreshSession", summary: "New tokens for a refresh token.", tag: "accounts",
                                                 description: "Each refresh token works once and is replaced by the one in the answer. Presenting one already used ends its whole session (401 `refresh_token_reused`): sign in again.",
                                                 isPublic: true, requestBody: "RefreshRequest", answers: [grant[0]], problems: [401, 413, 415, 422, 429])
    static let signOut = OpenAPIOperation(method: .post, path: "/v1/auth/sign-out", operationID: "signOut", summary: "End the caller's session.", tag: "accounts",
                                          answers: [Answer(status: 204, description: "Signed out; the session's tokens no longer work.", schema: nil)],
                                          problems: [403])
    static let updateMe = OpenAPIOperation(method: .patch, path: "/v1/me", operationID: "updateMe", summary: "Change the caller's profile.", tag: "accounts",
                                           description: "Members left out stay as they are. Handles are 3–30 letters, digits, `_`, `.` or `-`, unique after NFKC and case folding; some words are reserved.",
                                           requestBody: "ProfileRequest", answers: [profile], problems: [409, 413, 415, 422])
    static let deleteMe = OpenAPIOperation(method: .delete, path: "/v1/me", operationID: "deleteMe", summary: "Delete the caller's account.", tag: "accounts",
                                           description: "Needs a sign-in at most `accounts.recent_sign_in_minutes` old (else 403 `recent_sign_in_required`). Erases what identifies the member (name, email, handle, identities, sessions, calendar feed), revokes their rewards (badges and share pages), and keeps their attendance anonymously.",
                                           answers: [Answer(status: 204, description: "The account is deleted.", schema: nil)], problems: [403])
    static let listSessions = OpenAPIOperation(method: .get, path: "/v1/me/sessions", operationID: "listSessions", summary: "The caller's signed-in devices.", tag: "accounts",
                                               answers: [Answer(status: 200, description: "Live sessions, oldest first.", schema: Schema.ref("SessionList"))])
    static let endSession = OpenAPIOperation(method: .delete, path: "/v1/me/sessions/{id}", operationID: "endSession", summary: "Sign one device out.", tag: "accounts",
                                             answers: [Answer(status: 204, description: "The session has ended.", schema: nil)], problems: [404])
    static let exportMe = OpenAPIOperation(method: .get, path: "/v1/me/export", operationID: "exportMe", summary: "Everything Belay keeps about the caller.", tag: "accounts",
                                           answers: [Answer(status: 200, description: "One JSON document: profile, identities (no secrets), sessions, attendances, rewards with image URLs, share events, logbook preferences and every tick (private ones too).",
                                                            schema: Schema.ref("AccountExport"))],
                                           problems: [503])
    static let createInvite = OpenAPIOperation(method: .post, path: "/v1/invites", operationID: "createInvite", summary: "Make an invite code (hosts and admins).", tag: "accounts",
                                               description: "The body is optional: with none (or `{}`) the invite admits one person for 7 days.",
                                               requestBody: "InviteRequest", requestBodyIsOptional: true, answers: [Answer(status: 201, description: "The invite.", schema: invite)],
                                               problems: [403, 413, 415, 422])
    static let listInvites = OpenAPIOperation(method: .get, path: "/v1/invites", operationID: "listInvites", summary: "Invites (an admin's all, a host's own).", tag: "accounts",
                                              answers: [Answer(status: 200, description: "The newest 200 invites.", schema: Schema.ref("InviteList"))], problems: [403])
    static let revokeInvite = OpenAPIOperation(method: .delete, path: "/v1/invites/{id}", operationID: "revokeInvite", summary: "Revoke an invite.", tag: "accounts",
                                               answers: [Answer(status: 200, description: "The revoked invite.", schema: invite)], problems: [403, 404])
    static let emailLinkPage = OpenAPIOperation(method: .get, path: "/auth/email/{token}", operationID: "emailLinkPage", summary: "The page of a mailed sign-in link (for a browser without the app).",
                                                tag: "accounts", isPublic: true,
                                                answers: [Answer(status: 200, description: "A page telling to open the link with the app.", schema: Schema.string, contentType: "text/html")])
    static let invitePage = OpenAPIOperation(method: .get, path: "/invite/{code}", operationID: "invitePage", summary: "The page of an invite link (for a browser without the app).",
                                             tag: "accounts", isPublic: true,
                                             answers: [Answer(status: 200, description: "A page with the invite code.", schema: Schema.string, contentType: "text/html")])
}
