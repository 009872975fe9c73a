import BelayCore
import BelayDomain
import BelayHTTP
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// `belay serve` signing members in against real protocol peers on loopback: a provider that
/// publishes keys and signs ID tokens with PyJWT (and plays Apple's token and revocation
/// endpoints, checking Belay's client secret), and an SMTP server whose messages are parsed
/// with Python's `email` package.
@Suite(.serialized) struct SignInEndToEndTests {
    static let appleClientID = "club.example.belay"
    static let googleClientID = "1234-abc.apps.googleusercontent.com"

    struct Peers {
        let workspace: ClubWorkspace
        let provider: IdentityProviderProcess
        let smtp: SMTPCaptureProcess
        let server: BelayServerProcess
    }

    func start(signUp: String = "open", authPerMinute: Int = 1_000, emailsPerHour: Int = 50) throws -> Peers {
        let keys = try TemporaryDirectory(prefix: "belay-idp")
        let provider = try IdentityProviderProcess(in: keys, appleClientID: Self.appleClientID)
        let smtp = try SMTPCaptureProcess()
        let workspace = try ClubWorkspace.served(server: ["public_base_url": "https://climb.example"], settings: [
            "accounts": ["sign_up": signUp],
            "auth": [
                "apple": ["client_ids": Self.appleClientID, "jwks_url": provider.jwksURL, "team_id": provider.appleTeamID,
                          "key_id": provider.appleKeyID, "private_key_file": provider.appleTeamKeyFile,
                          "token_url": provider.url("/auth/token"), "revoke_url": provider.url("/auth/revoke")],
                "google": ["client_ids": Self.googleClientID, "jwks_url": provider.jwksURL],
            ],
            "mail": ["smtp_url": smtp.url, "from": "Belay Climbing Club <no-reply@climb.example>", "require_tls": 0],
            "rate_limits": ["auth_per_address_per_minute": authPerMinute, "auth_per_email_per_hour": emailsPerHour],
            // The client journey waits for the story redrawn with its ticks.
            "logbook": ["story_refresh_seconds": 10],
        ])
        let server = try workspace.serve()
        return Peers(workspace: workspace, provider: provider, smtp: smtp, server: server)
    }

    /// An Apple identity token for `subject` with the SHA-256 of `nonce`, signed by the provider.
    static func appleToken(_ provider: IdentityProviderProcess, subject: String, nonce: String, email: String? = nil,
                           alg: String = "RS256", kid: String = "rsa-1", signingKey: String? = nil, overrides: [String: Any] = [:]) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = ["iss": "https://appleid.apple.com", "aud": appleClientID, "sub": subject, "iat": now, "exp": now + 600,
                                     "nonce": Crypto.hex(Crypto.sha256(Array(nonce.utf8))), "nonce_supported": true]
        if let email { claims["email"] = email; claims["email_verified"] = "true"; claims["is_private_email"] = "true" }
        claims.merge(overrides) { $1 }
        return try provider.sign(claims: claims, alg: alg, kid: kid, signingKey: signingKey)
    }

    static func body(_ members: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)
    }

    /// The served OpenAPI document, to check every answer below against.
    static func schemas(_ server: BelayServerProcess) throws -> SchemaConformance {
        try SchemaConformance(document: try #require(try server.call("GET", "/openapi.json").json))
    }

    @Test func appleSignInRefreshReuseProfileAndDeletion() throws {
        let peers = try start()
        let (server, provider) = (peers.server, peers.provider)
        let schemas = try Self.schemas(server)
        let token = try Self.appleToken(provider, subject: "000123.apple", nonce: "raw-nonce-1", email: "x7f@privaterelay.appleid.com")
        let signIn = try server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": token, "nonce": "raw-nonce-1", "name": "Jisoo Kim", "authorization_code": "apple-code-1",
            "device_name": "Jisoo's iPhone", "platform": "ios", "locale": "ko"]))
        #expect(signIn.status == 201, "\(signIn.response.text)")
        signIn.check(against: schemas, .post, "/v1/auth/apple")
        #expect(signIn["account_created"]?.boolValue == true)
        #expect(signIn["user"]?["handle"]?.stringValue == "jisoo.kim")
        #expect(signIn.response.header("Cache-Control") == "no-store")
        let access = try #require(signIn["access_token"]?.stringValue)
        let refresh = try #require(signIn["refresh_token"]?.stringValue)
        // Apple's authorization code was exchanged with a client secret Apple's side verified.
        let exchange = try #require(try provider.appleRequests().first { $0["endpoint"] as? String == "/auth/token" })
        #expect(exchange["verified"] as? Bool == true, "\(exchange)")

        // The same token again is refused: each works once.
        let replay = try server.call("POST", "/v1/auth/apple", json: try Self.body(["identity_token": token, "nonce": "raw-nonce-1"]))
        #expect(replay.status == 401)
        #expect(replay["code"]?.stringValue == "token_already_used")
        replay.check(against: schemas, .post, "/v1/auth/apple")

        let me = try server.call("GET", "/v1/me", token: access)
        #expect(me.status == 200)
        #expect(me["display_name"]?.stringValue == "Jisoo Kim")
        #expect(me["locale"]?.stringValue == "ko")
        #expect(me["email"]?.stringValue == "x7f@privaterelay.appleid.com")
        me.check(against: schemas, .get, "/v1/me")

        let patched = try server.call("PATCH", "/v1/me", token: access, json: #"{"display_name": "지수", "handle": "ｊｉｓｏｏ", "locale": "en"}"#)
        #expect(patched.status == 200, "\(patched.response.text)")
        #expect(patched["handle"]?.stringValue == "jisoo")
        patched.check(against: schemas, .patch, "/v1/me")
        let reserved = try server.call("PATCH", "/v1/me", token: access, json: #"{"handle": "Ａdmin"}"#)
        #expect(reserved.status == 422)
        reserved.check(against: schemas, .patch, "/v1/me")

        // A member creates and hosts a meetup (meetups.created_by defaults to members).
        let start = Date().addingTimeInterval(-60)
        let meetup = try server.call("POST", "/v1/meetups", token: access, json: try Self.body([
            "title": "Evening session", "place_name": "Seoul Forest Gym", "capacity": 8, "time_zone": "Asia/Seoul",
            "starts_at": RFC3339.string(from: start, utcOffsetSeconds: 0), "ends_at": RFC3339.string(from: start.addingTimeInterval(7_200), utcOffsetSeconds: 0)]))
        #expect(meetup.status == 201, "\(meetup.response.text)")

        let rotated = try server.call("POST", "/v1/auth/refresh", json: try Self.body(["refresh_token": refresh]))
        #expect(rotated.status == 200)
        rotated.check(against: schemas, .post, "/v1/auth/refresh")
        let newAccess = try #require(rotated["access_token"]?.stringValue)
        let sessions = try server.call("GET", "/v1/me/sessions", token: newAccess)
        #expect(sessions["items"]?.arrayValue?.count == 1)
        #expect(sessions["items"]?.arrayValue?.first?["device_name"]?.stringValue == "Jisoo's iPhone")
        #expect(sessions["items"]?.arrayValue?.first?["current"]?.boolValue == true)
        sessions.check(against: schemas, .get, "/v1/me/sessions")

        // The first refresh token presented again: the session ends, so the new access token stops
        // too, at once, although the server had just remembered it (its token cache).
        #expect(try server.call("GET", "/v1/me", token: newAccess).status == 200)
        let reused = try server.call("POST", "/v1/auth/refresh", json: try Self.body(["refresh_token": refresh]))
        #expect(reused.status == 401)
        #expect(reused["code"]?.stringValue == "refresh_token_reused")
        reused.check(against: schemas, .post, "/v1/auth/refresh")
        #expect(try server.call("GET", "/v1/me", token: newAccess).status == 401, "the session's access tokens stop with it")

        // Signing in again is recent enough to delete the account; Apple's token is revoked.
        let again = try server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": try Self.appleToken(provider, subject: "000123.apple", nonce: "raw-nonce-2"), "nonce": "raw-nonce-2"]))
        #expect(again.status == 200)
        #expect(again["account_created"]?.boolValue == false)
        let fresh = try #require(again["access_token"]?.stringValue)
        let export = try server.call("GET", "/v1/me/export", token: fresh)
        #expect(export.status == 200)
        #expect(export["profile"]?["handle"]?.stringValue == "jisoo")
        export.check(against: schemas, .get, "/v1/me/export")
        #expect(export["identities"]?.arrayValue?.first?["provider"]?.stringValue == "apple")
        #expect(!export.response.text.contains("apple-code-1"))
        let deleted = try server.call("DELETE", "/v1/me", token: fresh)
        #expect(deleted.status == 204, "\(deleted.response.text)")
        deleted.check(against: schemas, .delete, "/v1/me")
        #expect(try server.poll(timeout: 10) { try provider.revokedTokens().isEmpty ? nil : true } == true)
        #expect(try server.call("GET", "/v1/me", token: fresh).status == 401)
    }

    /// The six digits of the `Code: 842 337` line of the `number`th sign-in mail (in English).
    static func emailCode(_ smtp: SMTPCaptureProcess, number: Int = 1) throws -> String {
        let messages = smtp.waitForMessages(count: number)
        try #require(messages.count >= number)
        let message = messages[number - 1]
        let text = try #require(message.text)
        return try #require(text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard line.hasPrefix("Code: ") else { return nil }
            return line.dropFirst("Code: ".count).filter(\.isNumber)
        }.first)
    }

    /// The files of the workspace's SQLite database that still hold one of `needles`, by name.
    static func filesHolding(_ needles: [String], in workspace: ClubWorkspace) -> [String] {
        ["", "-wal", "-shm"].flatMap { suffix -> [String] in
            guard let bytes = FileManager.default.contents(atPath: workspace.databasePath + suffix) else { return [] }
            return needles.filter { bytes.range(of: Data($0.utf8)) != nil }.map { "belay.sqlite3\(suffix) holds \($0)" }
        }
    }

    @Test func anErasedMembersEmailNameAndHandleLeaveNoByteInTheDatabaseFiles() throws {
        let peers = try start()
        guard peers.workspace.databaseURL == nil else { return } // PostgreSQL keeps dead rows until VACUUM (README)
        let (server, smtp) = (peers.server, peers.smtp)
        let (email, name, handle) = ("qz7.erasure@example.com", "Quenby Zaltrowska", "quenbyzal")
        #expect(try server.call("POST", "/v1/auth/email", json: #"{"email": "\#(email)", "locale": "en"}"#).status == 202)
        let verified = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "\#(email)", "code": "\#(try Self.emailCode(smtp))"}"#)
        #expect(verified.status == 201, "\(verified.response.text)")
        let token = try #require(verified["access_token"]?.stringValue)
        let patched = try server.call("PATCH", "/v1/me", token: token, json: #"{"display_name": "\#(name)", "handle": "\#(handle)"}"#)
        #expect(patched.status == 200, "\(patched.response.text)")
        #expect(!Self.filesHolding([email, name, handle], in: peers.workspace).isEmpty, "the member's data is in the files before")

        let deleted = try server.call("DELETE", "/v1/me", token: token)
        #expect(deleted.status == 204, "\(deleted.response.text)")
        var left: [String] = []
        let clean = server.poll(timeout: 30) { () -> Bool? in
            left = Self.filesHolding([email, name, handle], in: peers.workspace)
            return left.isEmpty ? true : nil
        }
        #expect(clean == true, "\(left)")
        // The server goes on writing and reading as before; the old token's 401 says what a member can do.
        let gone = try server.call("GET", "/v1/me", token: token)
        #expect(gone.status == 401)
        #expect(gone["detail"]?.stringValue?.contains("Sign in again") == true, "\(gone.response.text)")
        #expect(try server.call("POST", "/v1/auth/email", json: #"{"email": "next@example.com"}"#).status == 202)
    }

    @Test func everyRefusedTokenIsAProblemWithItsCodeAndNeverA500() throws {
        let peers = try start()
        let (server, provider) = (peers.server, peers.provider)
        let schemas = try Self.schemas(server)
        func attempt(_ token: String, nonce: String = "n") throws -> WireResponse {
            try server.call("POST", "/v1/auth/apple", json: try Self.body(["identity_token": token, "nonce": nonce]))
        }
        func expectRefusal(_ response: WireResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(response.status == status, "\(response.response.text)", sourceLocation: sourceLocation)
            #expect(response["code"]?.stringValue == code, "\(response.response.text)", sourceLocation: sourceLocation)
            #expect(response.isProblem, sourceLocation: sourceLocation)
            response.check(against: schemas, .post, "/v1/auth/apple", sourceLocation: sourceLocation)
        }
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", alg: "none")), 401, "algorithm_not_allowed")
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", alg: "HS256")), 401, "algorithm_not_allowed")
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", overrides: ["iss": "https://evil.example"])), 401, "wrong_issuer")
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", overrides: ["aud": "com.other.app"])), 401, "wrong_audience")
        let now = Int(Date().timeIntervalSince1970)
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", overrides: ["exp": now - 3_600, "iat": now - 7_200])), 401, "token_expired")
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", overrides: ["iat": now + 3_600, "exp": now + 7_200])), 401, "issued_in_future")
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "other")), 401, "wrong_nonce")
        expectRefusal(try attempt(try Self.appleToken(provider, subject: "s", nonce: "n", kid: "nobody", signingKey: "rsa-1")), 401, "unknown_key")
        expectRefusal(try attempt("not.a.jwt"), 422, "malformed_token")
        // Another token's claims under this token's signature.
        let signed = try Self.appleToken(provider, subject: "s", nonce: "n", alg: "ES256", kid: "ec-1").split(separator: ".")
        let other = try Self.appleToken(provider, subject: "admin", nonce: "n", alg: "ES256", kid: "ec-1").split(separator: ".")
        expectRefusal(try attempt([signed[0], other[1], signed[2]].joined(separator: ".")), 401, "bad_signature")
        let missing = try server.call("POST", "/v1/auth/apple", json: #"{"identity_token": "x"}"#)
        #expect(missing.status == 422)
        #expect(missing["field"]?.stringValue == "nonce")

        // Google: either issuer form, `azp` checked.
        let googleClaims: [String: Any] = ["iss": "accounts.google.com", "aud": Self.googleClientID, "azp": Self.googleClientID,
                                           "sub": "google-77", "iat": now, "exp": now + 600, "email": "minji@example.com", "email_verified": true]
        let google = try server.call("POST", "/v1/auth/google", json: try Self.body(["id_token": try provider.sign(claims: googleClaims)]))
        #expect(google.status == 201, "\(google.response.text)")
        var stranger = googleClaims
        stranger["azp"] = "someone-else"
        stranger["sub"] = "google-78"
        expectRefusal(try server.call("POST", "/v1/auth/google", json: try Self.body(["id_token": try provider.sign(claims: stranger)])),
                      401, "wrong_authorized_party")
    }

    @Test func keysThatCannotBeFetchedAreA503WithRetryAfter() throws {
        let peers = try start()
        try peers.provider.setDown(true)
        let down = try peers.server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": try Self.appleToken(peers.provider, subject: "s", nonce: "n"), "nonce": "n"]))
        #expect(down.status == 503, "\(down.response.text)")
        #expect(down["code"]?.stringValue == "keys_unavailable")
        #expect(down.response.header("Retry-After") != nil)
        #expect(down.isProblem)
    }

    /// Sign-ins that must fetch the provider's keys wait for it off the HTTP threads: with a key
    /// server that answers after 10 s (past the 5 s fetch timeout), eight sign-ins naming keys
    /// nobody knows hold neither of the server's two threads, and the keys are fetched once for all.
    @Test func aSlowKeyServerHoldsOnlyTheSignInsThatNeedIt() throws {
        let peers = try start()
        let (server, provider) = (peers.server, peers.provider)
        let member = try peers.workspace.user("climber")
        try provider.setKeysDelay(10)
        let answered = Mutex<[Int]>([])
        let group = DispatchGroup()
        for index in 0..<8 {
            let token = try Self.appleToken(provider, subject: "slow-\(index)", nonce: "n", kid: "unknown-\(index)", signingKey: "rsa-1")
            let body = try Self.body(["identity_token": token, "nonce": "n"])
            DispatchQueue.global().async(group: group) {
                let status = (try? server.call("POST", "/v1/auth/apple", json: body))?.status ?? -1
                answered.withLock { $0.append(status) }
            }
        }
        // Let the sign-ins reach the server and the first start its fetch (held 10 s by the
        // key server), so that each of the server's threads has taken one.
        _ = server.poll(timeout: 5) { (try? provider.jwksFetches()).flatMap { $0 >= 1 ? true : nil } }
        Thread.sleep(forTimeInterval: 1)
        let health = try server.call("GET", "/healthz")
        let meetups = try server.call("GET", "/v1/meetups", token: member.token)
        let answeredMeanwhile = answered.withLock { $0 }
        #expect(health.status == 200 && meetups.status == 200)
        #expect(answeredMeanwhile.isEmpty, "other requests were answered while every sign-in still waited on the key server: \(answeredMeanwhile)")

        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(answered.withLock { $0 }.allSatisfy { $0 == 503 }, "the fetch timed out: keys_unavailable, \(answered.withLock { $0 })")
        #expect(try provider.jwksFetches() == 1, "one fetch for all eight")
    }

    @Test func emailSignInSendsAProperMessageAndItsCodeWorksOnce() throws {
        let peers = try start(emailsPerHour: 2)
        let (server, smtp) = (peers.server, peers.smtp)
        let schemas = try Self.schemas(server)
        let sent = try server.call("POST", "/v1/auth/email", json: #"{"email": "Hana@Example.com", "locale": "ja"}"#)
        #expect(sent.status == 202)
        sent.check(against: schemas, .post, "/v1/auth/email")
        let message = try #require(smtp.waitForMessage())
        #expect(message.recipients == ["hana@example.com"])
        #expect(message.subject?.contains("ログインコード") == true)
        #expect(message.contentLanguage == "ja")
        #expect(message.messageID?.hasSuffix("@climb.example>") == true)
        #expect(message.date != nil)
        let html = try #require(message.html)
        let text = try #require(message.text)
        let code = try #require(text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard line.hasPrefix("コード: ") else { return nil }
            return line.dropFirst("コード: ".count).filter(\.isNumber)
        }.first)
        #expect(code.count == 6)
        let link = try #require(text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("https://climb.example/auth/email/") })
        #expect(html.contains(String(link)))

        let wrong = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "hana@example.com", "code": "\#(code == "000000" ? "111111" : "000000")"}"#)
        #expect(wrong.status == 401)
        #expect(wrong["code"]?.stringValue == "invalid_email_code")
        let verified = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "hana@example.com", "code": "\#(code)", "platform": "android"}"#)
        #expect(verified.status == 201, "\(verified.response.text)")
        verified.check(against: schemas, .post, "/v1/auth/email/verify")
        wrong.check(against: schemas, .post, "/v1/auth/email/verify")
        let again = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "hana@example.com", "code": "\#(code)"}"#)
        #expect(again.status == 401)
        let both = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "hana@example.com", "code": "123456", "link_token": "x"}"#)
        #expect(both.status == 422)

        // The link page a browser sees, and the app-link files cover the path.
        let page = try server.call("GET", String(link.dropFirst("https://climb.example".count)))
        #expect(page.status == 200)

        // Two mails an hour for this address here: the third is refused, with the limit's fields.
        #expect(try server.call("POST", "/v1/auth/email", json: #"{"email": "hana@example.com"}"#).status == 202)
        let limited = try server.call("POST", "/v1/auth/email", json: #"{"email": "HANA@example.com"}"#)
        #expect(limited.status == 429)
        #expect(limited["code"]?.stringValue == "rate_limited")
        limited.check(against: schemas, .post, "/v1/auth/email")
        #expect(limited.response.header("Retry-After") != nil)
        #expect(limited.response.header("RateLimit-Policy")?.contains("q=2") == true)
        // An address without an account gets the same answer as one with it.
        let unknown = try server.call("POST", "/v1/auth/email", json: #"{"email": "nobody@example.com"}"#)
        #expect(unknown.status == 202)
        #expect(unknown.response.text == sent.response.text)
    }

    @Test func theEmailedCodeWorksTypedAsTheMailShowsItAndMistypingsSpendNoTry() throws {
        let peers = try start()
        let (server, smtp) = (peers.server, peers.smtp)
        let schemas = try Self.schemas(server)
        #expect(try server.call("POST", "/v1/auth/email", json: #"{"email": "dana@example.com", "locale": "en"}"#).status == 202)
        let code = try Self.emailCode(smtp)
        // Not six digits: refused as such, five times over, and no try is spent (five voids the code).
        for typed in ["84233", "842 33x", "１２３-４５６７", "842_337", "842 337 9"] {
            let mistyped = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "dana@example.com", "code": "\#(typed)"}"#)
            #expect(mistyped.status == 422, "\(typed): \(mistyped.response.text)")
            #expect(mistyped["field"]?.stringValue == "code")
            #expect(mistyped["detail"]?.stringValue?.contains("six digits") == true, "\(mistyped.response.text)")
            mistyped.check(against: schemas, .post, "/v1/auth/email/verify")
        }
        // As the mail shows it, with a space, and as some type it, with a dash.
        let spaced = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "dana@example.com", "code": " \#(code.prefix(3)) \#(code.suffix(3)) "}"#)
        #expect(spaced.status == 201, "\(spaced.response.text)")
        #expect(try server.call("POST", "/v1/auth/email", json: #"{"email": "dana@example.com", "locale": "en"}"#).status == 202)
        let second = try Self.emailCode(smtp, number: 2)
        let dashed = try server.call("POST", "/v1/auth/email/verify", json: #"{"email": "dana@example.com", "code": "\#(second.prefix(3))-\#(second.suffix(3))"}"#)
        #expect(dashed.status == 200, "\(dashed.response.text)")
    }

    @Test func authRoutesAreLimitedPerAddress() throws {
        let peers = try start(authPerMinute: 5)
        var statuses: [Int] = []
        for _ in 0..<7 {
            let response = try peers.server.call("POST", "/v1/auth/refresh", json: #"{"refresh_token": "belay_r_unknown"}"#)
            statuses.append(response.status)
            if response.status != 429 { #expect(response.response.header("RateLimit") != nil) }
        }
        #expect(statuses.prefix(5).allSatisfy { $0 == 401 }, "\(statuses)")
        #expect(statuses.suffix(2).allSatisfy { $0 == 429 }, "\(statuses)")
    }

    @Test func inviteOnlySignUpNeedsAnInviteAndAdminsDeleteUsers() throws {
        let peers = try start(signUp: "invite")
        let (server, provider, workspace) = (peers.server, peers.provider, peers.workspace)
        let host = try workspace.user("setter", role: "host")
        let refused = try server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": try Self.appleToken(provider, subject: "newcomer", nonce: "a"), "nonce": "a"]))
        #expect(refused.status == 403)
        #expect(refused["code"]?.stringValue == "invite_required")
        let invite = try server.call("POST", "/v1/invites", token: host.token, json: #"{"uses": 1, "expires_in_days": 3}"#)
        #expect(invite.status == 201, "\(invite.response.text)")
        let code = try #require(invite["code"]?.stringValue)
        #expect(invite["link"]?.stringValue == "https://climb.example/invite/\(code)")
        invite.check(against: try Self.schemas(server), .post, "/v1/invites")
        let joined = try server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": try Self.appleToken(provider, subject: "newcomer", nonce: "b"), "nonce": "b", "invite_code": code, "name": "New Comer"]))
        #expect(joined.status == 201, "\(joined.response.text)")
        let used = try server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": try Self.appleToken(provider, subject: "second", nonce: "c"), "nonce": "c", "invite_code": code]))
        #expect(used["code"]?.stringValue == "invalid_invite")
        let listed = try workspace.cli(["invites", "list"])
        #expect(listed["items"]?.arrayValue?.first?["uses"]?.intValue == 1)
        let handle = try #require(joined["user"]?["handle"]?.stringValue)
        let result = try BelayProcess.run(["users", "delete", handle, "--yes", "--config", workspace.configPath], in: workspace.directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("Deleted"))
        // Erased down to the bytes, although the server still has the database open.
        if workspace.databaseURL == nil {
            #expect(Self.filesHolding([handle, "New Comer"], in: workspace).isEmpty, "\(Self.filesHolding([handle, "New Comer"], in: workspace))")
        }
        let access = try #require(joined["access_token"]?.stringValue)
        #expect(try server.poll(timeout: 5) { try server.call("GET", "/v1/me", token: access).status == 401 ? true : nil } == true)
    }

    /// The real binary holds an enrolled admin's sign-in from the app, Apple's and the emailed
    /// code's alike, until the authenticator's code, computed here by PyOTP at the real time.
    @Test func anEnrolledAdminsAppSignInAsksForTheAuthenticatorsCode() throws {
        let peers = try start()
        let (server, provider, smtp) = (peers.server, peers.provider, peers.smtp)
        let schemas = try Self.schemas(server)
        let created = try peers.workspace.cli(["users", "create", "mina", "--name", "Mina Park", "--role", "admin", "--email", "mina@example.com"])
        let adminID = try #require(created["user"]?["id"]?.intValue)

        // Enrolled as the console enrols (its secret into the app, confirmed with the app's code).
        let domain = try DomainServices(pool: try peers.workspace.store(), settings: BuiltInSettings.domain())
        let totp = try domain.secondFactors.startEnrolment(userID: adminID)
        let secret = Base32.encoded(totp.secret)
        let recovery = try domain.secondFactors.confirmEnrolment(userID: adminID,
                                                                 code: try ConsoleSecondFactorTests.referenceCode(secret, at: Date()))

        // Apple: the token proves the admin's address, and the answer is a challenge, not tokens.
        let token = try Self.appleToken(provider, subject: "000777.apple", nonce: "raw-nonce-2fa", email: "mina@example.com")
        let held = try server.call("POST", "/v1/auth/apple", json: try Self.body([
            "identity_token": token, "nonce": "raw-nonce-2fa", "device_name": "Mina's iPhone", "platform": "ios"]))
        #expect(held.status == 202, "\(held.response.text)")
        held.check(against: schemas, .post, "/v1/auth/apple")
        #expect(held["second_factor_required"]?.boolValue == true)
        #expect(held["access_token"] == nil)
        let challenge = try #require(held["challenge"]?.stringValue)
        // The ID token was spent by the held sign-in: it cannot start another.
        let replay = try server.call("POST", "/v1/auth/apple", json: try Self.body(["identity_token": token, "nonce": "raw-nonce-2fa"]))
        #expect(replay["code"]?.stringValue == "token_already_used")

        // The next step's code (the enrolment spent this one's) signs in; the same code again is refused.
        let code = try ConsoleSecondFactorTests.referenceCode(secret, at: Date().addingTimeInterval(30))
        let passed = try server.call("POST", "/v1/auth/second-factor", json: try Self.body(["challenge": challenge, "code": code]))
        #expect(passed.status == 200, "\(passed.response.text)")
        passed.check(against: schemas, .post, "/v1/auth/second-factor")
        #expect(passed["user"]?["handle"]?.stringValue == "mina")
        let access = try #require(passed["access_token"]?.stringValue)
        let sessions = try server.call("GET", "/v1/me/sessions", token: access)
        #expect(sessions["items"]?.arrayValue?.first?["device_name"]?.stringValue == "Mina's iPhone")
        #expect(sessions["items"]?.arrayValue?.first?["sign_in_method"]?.stringValue == "apple")

        // The emailed code: held too; a used code is refused, a recovery code finishes it.
        #expect(try server.call("POST", "/v1/auth/email", json: #"{"email": "mina@example.com", "locale": "en"}"#).status == 202)
        let mailed = try server.call("POST", "/v1/auth/email/verify",
                                     json: #"{"email": "mina@example.com", "code": "\#(try Self.emailCode(smtp))"}"#)
        #expect(mailed.status == 202, "\(mailed.response.text)")
        let second = try #require(mailed["challenge"]?.stringValue)
        let used = try server.call("POST", "/v1/auth/second-factor", json: try Self.body(["challenge": second, "code": code]))
        #expect(used.status == 401)
        #expect(used["code"]?.stringValue == "invalid_second_factor_code")
        used.check(against: schemas, .post, "/v1/auth/second-factor")
        let byRecovery = try server.call("POST", "/v1/auth/second-factor", json: try Self.body(["challenge": second, "code": recovery[0]]))
        #expect(byRecovery.status == 200, "\(byRecovery.response.text)")
        #expect(try domain.secondFactors.state(userID: adminID).recoveryCodesLeft == 9)
    }
}
