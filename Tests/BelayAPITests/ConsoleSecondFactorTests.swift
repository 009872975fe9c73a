import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The console's second factor: an admin enrols an authenticator, is asked for its code at the
/// next sign-in, codes computed by PyOTP (an independent implementation) are accepted once, a
/// recovery code works once, and `required` sends admins to enrol first.
@Suite(.serialized) struct ConsoleSecondFactorTests {
    /// The code PyOTP computes for `secret` (base32) at `date`.
    static func referenceCode(_ secret: String, at date: Date) throws -> String {
        let root = BelayProcess.packageRoot
        // The first run may make the tests' Python environment.
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path,
                                             [root.appendingPathComponent("scripts/testing/totp-code.py").path, secret,
                                              String(Int64(date.timeIntervalSince1970))], timeout: 1_200)
        try #require(result.status == 0, "totp-code.py: \(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The text of the element with `id` (without tags).
    static func text(ofID id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\">") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "<" })
    }

    /// Sends the email step as far as the second factor; the answer of the code's form.
    static func signInToSecondFactor(_ client: ConsoleClient, email: String, club: ConsoleFixture, mailNumber: Int) throws -> APIResponse {
        #expect(client.get("/console/sign-in").status == 200)
        #expect(client.post("/console/sign-in", [("email", email)]).status == 200)
        let code = try ConsoleBrowserTests.mailedCode(club.smtp, number: mailNumber)
        return client.post("/console/sign-in/code", [("email", email), ("code", code)])
    }

    @Test func anAdminEnrolsAndEachSignInThenAsksForAFreshCodeOrARecoveryCodeOnce() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let admin = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let client = ConsoleClient(fixture)
        try client.signIn(email: "mina@example.com", smtp: club.smtp)

        // Enrolling: a secret as a QR code and as text, confirmed with the app's current code.
        let before = client.get("/console/second-factor")
        #expect(before.status == 200)
        #expect(before.text.contains("action=\"/console/second-factor/start\""))
        #expect(client.post("/console/second-factor/start", []).status == 303)
        let shown = client.get("/console/second-factor")
        #expect(shown.text.contains("<svg id=\"qr\""))
        let secret = try #require(Self.text(ofID: "setup-key", in: shown.text)).replacingOccurrences(of: " ", with: "")
        #expect(secret.count == 32)
        let wrongSetup = client.post("/console/second-factor/confirm", [("code", "000 000")])
        #expect(wrongSetup.status == 401)
        #expect(wrongSetup.text.contains("value=\"000 000\""), "what was typed is kept")
        let firstCode = try Self.referenceCode(secret, at: fixture.clock.now())
        let enrolled = client.post("/console/second-factor/confirm", [("code", firstCode)])
        #expect(enrolled.status == 200, "\(enrolled.text)")
        let recovery = enrolled.text.components(separatedBy: "<li><code>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(recovery.count == 10)
        #expect(Set(recovery).count == 10)
        #expect(try fixture.domain.secondFactors.state(userID: admin.id).enrolled)
        #expect(!client.get("/console/second-factor").text.contains(recovery[0]), "recovery codes are shown once")

        // Signing in again: the emailed code alone gives no session.
        #expect(client.post("/console/sign-out", []).status == 303)
        let asked = try Self.signInToSecondFactor(client, email: "mina@example.com", club: club, mailNumber: 2)
        #expect(asked.status == 200)
        #expect(asked.text.contains("action=\"/console/sign-in/second-factor\""))
        #expect(client.cookies[ConsoleCookiesForTests.session] == nil, "no session before the second factor")
        #expect(client.get("/console").status == 303)
        #expect(client.get("/console/sign-in/second-factor").status == 200)

        // A wrong code is shown on the form with what was typed; the code of enrolment is spent (replay).
        let wrong = client.post("/console/sign-in/second-factor", [("code", "12 34 56")])
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("value=\"12 34 56\"") && wrong.text.contains("role=\"alert\""))
        let replayed = client.post("/console/sign-in/second-factor", [("code", firstCode)])
        #expect(replayed.status == 401, "a code already used within its window must be refused")
        #expect(client.cookies[ConsoleCookiesForTests.session] == nil)

        // Thirty seconds on, the app's next code signs in.
        fixture.clock.advance(by: 30)
        let nextCode = try Self.referenceCode(secret, at: fixture.clock.now())
        let passed = client.post("/console/sign-in/second-factor", [("code", nextCode)])
        #expect(passed.status == 303, "\(passed.text)")
        #expect(passed.headers["Location"] == "/console")
        #expect(client.cookies[ConsoleCookiesForTests.session] != nil)
        #expect(client.cookies["belay_console_held"] == nil)
        #expect(client.get("/console").status == 200)

        // The same code again, on another sign-in within its window: refused.
        #expect(client.post("/console/sign-out", []).status == 303)
        #expect(try Self.signInToSecondFactor(client, email: "mina@example.com", club: club, mailNumber: 3).status == 200)
        #expect(client.post("/console/sign-in/second-factor", [("code", nextCode)]).status == 401)
        // A recovery code (typed in capitals, as people copy) works, and is spent.
        let byRecovery = client.post("/console/sign-in/second-factor", [("code", recovery[3].uppercased())])
        #expect(byRecovery.status == 303, "\(byRecovery.text)")
        #expect(byRecovery.headers["Location"] == "/console/second-factor?recovery_codes_left=9")
        #expect(client.get("/console/second-factor?recovery_codes_left=9").text.contains("9"))
        #expect(client.post("/console/sign-out", []).status == 303)
        #expect(try Self.signInToSecondFactor(client, email: "mina@example.com", club: club, mailNumber: 4).status == 200)
        #expect(client.post("/console/sign-in/second-factor", [("code", recovery[3])]).status == 401, "a recovery code works once")

        // Too many wrong codes void the held sign-in: back to the start.
        for _ in 0..<4 { #expect(client.post("/console/sign-in/second-factor", [("code", "000000")]).status == 401) }
        let void = client.post("/console/sign-in/second-factor", [("code", recovery[4])])
        #expect(void.status == 401)
        #expect(void.text.contains("action=\"/console/sign-in\""))

        // The operator resets a lost phone: the emailed code alone signs in again.
        #expect(try fixture.domain.secondFactors.reset(userID: admin.id, by: .commandLine))
        try client.signIn(email: "mina@example.com", smtp: club.smtp, mailNumber: 5)
    }

    @Test func requiredSendsAdminsWithoutASecondFactorToEnrolFirst() throws {
        let club = try ConsoleFixture(settings: ["console": ["admin_second_factor": "required"]])
        let fixture = club.fixture
        _ = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let host = try club.signedInHost()
        #expect(host.get("/console").status == 200, "hosts are not asked")

        let admin = ConsoleClient(fixture)
        #expect(admin.get("/console/sign-in").status == 200)
        #expect(admin.post("/console/sign-in", [("email", "mina@example.com")]).status == 200)
        let code = try ConsoleBrowserTests.mailedCode(club.smtp, number: 2)
        #expect(admin.post("/console/sign-in/code", [("email", "mina@example.com"), ("code", code)]).status == 303)
        for path in ["/console", "/console/moderation", "/console/server"] {
            let page = admin.get(path)
            #expect(page.status == 303, "\(path)")
            #expect(page.headers["Location"] == "/console/second-factor", "\(path)")
        }
        let enrol = admin.get("/console/second-factor")
        #expect(enrol.status == 200)
        #expect(enrol.text.contains("role=\"alert\""))
        #expect(admin.post("/console/second-factor/start", []).status == 303)
        let secret = try #require(Self.text(ofID: "setup-key", in: admin.get("/console/second-factor").text)).replacingOccurrences(of: " ", with: "")
        #expect(admin.post("/console/second-factor/confirm", [("code", try Self.referenceCode(secret, at: fixture.clock.now()))]).status == 200)
        #expect(admin.get("/console").status == 200)
    }

    @Test func newRecoveryCodesNeedTheAppsCurrentCodeAndTheOldOnesStopWorking() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let admin = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let client = ConsoleClient(fixture)
        try client.signIn(email: "mina@example.com", smtp: club.smtp)
        let totp = try fixture.domain.secondFactors.startEnrolment(userID: admin.id)
        let secret = Base32.encoded(totp.secret)
        let old = try fixture.domain.secondFactors.confirmEnrolment(userID: admin.id, code: try Self.referenceCode(secret, at: fixture.clock.now()))

        let page = client.get("/console/second-factor")
        #expect(page.text.contains("action=\"/console/second-factor/recovery-codes\""))
        // Without the form's token nothing changes.
        let forged = client.post("/console/second-factor/recovery-codes", [("code", try Self.referenceCode(secret, at: fixture.clock.now().addingTimeInterval(30)))],
                                 csrf: "forged")
        #expect(forged.status == 403)
        client.get("/console/second-factor")
        // A wrong code, and the code the enrolment spent, are refused on the form with what was typed.
        let wrong = client.post("/console/second-factor/recovery-codes", [("code", "12 34 56")])
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("value=\"12 34 56\"") && wrong.text.contains("role=\"alert\""))
        let replayed = client.post("/console/second-factor/recovery-codes", [("code", try Self.referenceCode(secret, at: fixture.clock.now()))])
        #expect(replayed.status == 401)
        #expect(client.post("/console/second-factor/recovery-codes", [("code", old[0])]).status == 401, "a recovery code does not make new ones")

        let made = client.post("/console/second-factor/recovery-codes",
                               [("code", try Self.referenceCode(secret, at: fixture.clock.now().addingTimeInterval(30)))])
        #expect(made.status == 200, "\(made.text)")
        let fresh = made.text.components(separatedBy: "<li><code>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(fresh.count == 10)
        #expect(Set(fresh).isDisjoint(with: old))
        #expect(!client.get("/console/second-factor").text.contains(fresh[0]), "shown once")
        #expect(try fixture.domain.secondFactors.state(userID: admin.id).recoveryCodesLeft == 10)

        // An old code no longer lets a held sign-in through; a new one does.
        let identity = ProvenIdentity(method: .email, subject: "mina@example.com", email: "mina@example.com", emailVerified: true)
        let held = try #require(try fixture.domain.secondFactors.holdSignIn(identity))
        #expect(throws: DomainError.self) { try fixture.domain.secondFactors.completeSignIn(token: held.token, code: old[1]) }
        #expect(try fixture.domain.secondFactors.completeSignIn(token: held.token, code: fresh[1]).usedRecoveryCode)
    }

    @Test func anAdminResetsAMembersSecondFactorFromTheMembersPageIntoTheAuditLog() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let admin = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let hana = try fixture.domain.users.createUser(NewUser(handle: "hana", displayName: "Hana Lee", email: "hana@example.com", role: .host))
        let totp = try fixture.domain.secondFactors.startEnrolment(userID: hana.id)
        _ = try fixture.domain.secondFactors.confirmEnrolment(userID: hana.id, code: totp.code(at: fixture.clock.now()))
        let client = ConsoleClient(fixture)
        try client.signIn(email: "mina@example.com", smtp: club.smtp)

        let members = client.get("/console/members?q=hana")
        #expect(members.status == 200)
        let action = "action=\"/console/members/\(hana.id)/second-factor/reset\""
        #expect(members.text.contains(action))
        // A forged form changes nothing.
        #expect(client.post("/console/members/\(hana.id)/second-factor/reset", [("q", "hana"), ("reason", "x")], csrf: "forged").status == 403)
        #expect(try fixture.domain.secondFactors.state(userID: hana.id).enrolled)
        client.get("/console/members?q=hana")
        let tooLong = client.post("/console/members/\(hana.id)/second-factor/reset", [("q", "hana"), ("reason", String(repeating: "x", count: 1_001))])
        #expect(tooLong.status == 422)
        #expect(try fixture.domain.secondFactors.state(userID: hana.id).enrolled)

        let reset = client.post("/console/members/\(hana.id)/second-factor/reset", [("q", "hana"), ("reason", "Lost her phone; asked in person")])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(reset.text.contains("id=\"member-notice\""))
        #expect(!reset.text.contains(action), "nothing left to reset")
        #expect(try !fixture.domain.secondFactors.state(userID: hana.id).enrolled)
        let entry = try #require(try fixture.domain.moderation.audit(by: .commandLine).items.first)
        #expect(entry.action == .resetSecondFactor)
        #expect(entry.subjectType == .member && entry.subjectID == String(hana.id))
        #expect(entry.moderatorID == admin.id)
        #expect(entry.reason == "Lost her phone; asked in person")
        #expect(client.get("/console/moderation/audit").text.contains("reset_second_factor"))

        // Anyone but an admin gets the page that does not exist, and nothing is written.
        let again = try fixture.domain.secondFactors.startEnrolment(userID: hana.id)
        _ = try fixture.domain.secondFactors.confirmEnrolment(userID: hana.id, code: again.code(at: fixture.clock.now()))
        let host = try club.signedInHost(mailNumber: 2)
        #expect(!host.get("/console/members?q=hana").text.contains(action))
        #expect(host.post("/console/members/\(hana.id)/second-factor/reset", [("q", "hana")]).status == 404)
        #expect(try fixture.domain.secondFactors.state(userID: hana.id).enrolled)
        #expect(client.post("/console/members/999999/second-factor/reset", []).status == 404)
    }
}
