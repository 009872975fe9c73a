import BelayCore
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The app's sign-in (`/v1/auth/*`) asks a member with an authenticator for its code, as the
/// console does: the first factor alone answers 202 with a challenge and no tokens, and
/// `POST /v1/auth/second-factor` finishes the sign-in with the same held-sign-in rules (one step
/// either side, a code works once, a recovery code is spent, five wrong codes void it).
@Suite(.serialized) struct AppSecondFactorTests {
    /// A member with `email` and a confirmed authenticator; its secret and recovery codes.
    static func enrolled(_ fixture: APIFixture, handle: String, role: Role) throws -> (user: User, totp: TOTP, recovery: [String]) {
        let user = try fixture.domain.users.createUser(NewUser(handle: handle, displayName: handle.capitalized,
                                                               email: "\(handle)@example.com", role: role))
        let totp = try fixture.domain.secondFactors.startEnrolment(userID: user.id)
        let recovery = try fixture.domain.secondFactors.confirmEnrolment(userID: user.id, code: totp.code(at: fixture.clock.now()))
        return (user, totp, recovery)
    }

    /// `POST /v1/auth/email/verify` with the code the mail would carry.
    static func verifyEmail(_ fixture: APIFixture, _ email: String, device: String = "Mina's iPhone") throws -> APIResponse {
        let challenge = try fixture.domain.accounts.startEmailSignIn(email: email, locale: nil)
        return fixture.send(.post, "/v1/auth/email/verify",
                            json: #"{"email": "\#(email)", "code": "\#(challenge.code)", "device_name": "\#(device)", "platform": "ios"}"#)
    }

    static func complete(_ fixture: APIFixture, _ challenge: String, _ code: String) -> APIResponse {
        fixture.send(.post, "/v1/auth/second-factor", json: #"{"challenge": "\#(challenge)", "code": "\#(code)"}"#)
    }

    @Test func anEnrolledAdminsSignInIsHeldUntilTheAuthenticatorsCode() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let (admin, totp, recovery) = try Self.enrolled(fixture, handle: "mina", role: .admin)

        let held = try Self.verifyEmail(fixture, "mina@example.com")
        #expect(held.status == 202, "\(String(decoding: held.bytes, as: UTF8.self))")
        schemas.check(held, .post, "/v1/auth/email/verify")
        #expect(held["second_factor_required"]?.boolValue == true)
        #expect(held["access_token"] == nil && held["refresh_token"] == nil, "no tokens before the second factor")
        #expect(held["expires_in"]?.intValue == 600)
        #expect(held.headers["Cache-Control"] == "no-store")
        let challenge = try #require(held["challenge"]?.stringValue)
        #expect(try fixture.domain.accounts.sessions(userID: admin.id).isEmpty, "no session exists yet")

        // A wrong code, and the code the enrolment spent (a replay), are refused and may be retried.
        let wrong = Self.complete(fixture, challenge, "000000" == totp.code(at: fixture.clock.now()) ? "111111" : "000000")
        #expect(wrong.status == 401)
        #expect(wrong.problemCode == "invalid_second_factor_code")
        #expect(wrong["field"]?.stringValue == "code")
        schemas.check(wrong, .post, "/v1/auth/second-factor")
        let replayed = Self.complete(fixture, challenge, totp.code(at: fixture.clock.now()))
        #expect(replayed.status == 401, "a code already used within its window must be refused")

        // The next step's code (one step ahead is accepted) gives the sign-in's own answer.
        let passed = Self.complete(fixture, challenge, totp.code(at: fixture.clock.now().addingTimeInterval(30)))
        #expect(passed.status == 200, "\(String(decoding: passed.bytes, as: UTF8.self))")
        schemas.check(passed, .post, "/v1/auth/second-factor")
        #expect(passed["user"]?["id"]?.intValue == admin.id)
        #expect(passed["account_created"]?.boolValue == false)
        let access = try #require(passed["access_token"]?.stringValue)
        #expect(fixture.get("/v1/me", headers: [("Authorization", "Bearer \(access)")]).status == 200)
        let sessions = try fixture.domain.accounts.sessions(userID: admin.id)
        #expect(sessions.map(\.deviceName) == ["Mina's iPhone"], "the session is named by the device that asked")

        // The challenge worked once.
        let again = Self.complete(fixture, challenge, recovery[0])
        #expect(again.status == 401)
        #expect(again["field"]?.stringValue == "sign_in")

        // A recovery code finishes another sign-in once.
        let second = try #require(try Self.verifyEmail(fixture, "mina@example.com")["challenge"]?.stringValue)
        #expect(Self.complete(fixture, second, recovery[1].uppercased()).status == 200)
        let third = try #require(try Self.verifyEmail(fixture, "mina@example.com")["challenge"]?.stringValue)
        #expect(Self.complete(fixture, third, recovery[1]).status == 401, "a recovery code works once")

        // Five wrong codes void the challenge: even a right one is then refused.
        for _ in 0..<4 { #expect(Self.complete(fixture, third, "000 000").status == 401) }
        fixture.clock.advance(by: 60)
        let void = Self.complete(fixture, third, totp.code(at: fixture.clock.now()))
        #expect(void.status == 401)
        #expect(void["field"]?.stringValue == "sign_in")
    }

    @Test func membersWithoutASecondFactorSignInAtOnceAndBadChallengesAreProblems() throws {
        let fixture = try APIFixture()
        _ = try fixture.domain.users.createUser(NewUser(handle: "hana", displayName: "Hana", email: "hana@example.com", role: .member))
        let direct = try Self.verifyEmail(fixture, "hana@example.com")
        #expect(direct.status == 200)
        #expect(direct["access_token"]?.stringValue != nil)
        #expect(direct["second_factor_required"] == nil)

        let unknown = Self.complete(fixture, "no-such-challenge", "123456")
        #expect(unknown.status == 401)
        #expect(unknown["field"]?.stringValue == "sign_in")
        let tooLong = Self.complete(fixture, String(repeating: "x", count: 200), "123456")
        #expect(tooLong.status == 422)
        #expect(tooLong["field"]?.stringValue == "challenge")
        let missing = fixture.send(.post, "/v1/auth/second-factor", json: #"{"challenge": "abc"}"#)
        #expect(missing.status == 422)
    }

    @Test func requiredRefusesAnAdminWithoutASecondFactorTheAppsSession() throws {
        let fixture = try APIFixture(settings: ["console": ["admin_second_factor": "required"]])
        _ = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina", email: "mina@example.com", role: .admin))
        _ = try fixture.domain.users.createUser(NewUser(handle: "jun", displayName: "Jun", email: "jun@example.com", role: .host))
        let refused = try Self.verifyEmail(fixture, "mina@example.com")
        #expect(refused.status == 403)
        #expect(refused.problemCode == "second_factor_enrolment_required")
        try SchemaConformance(fixture).check(refused, .post, "/v1/auth/email/verify")
        #expect(try Self.verifyEmail(fixture, "jun@example.com").status == 200, "only admins are required to enrol")

        // Once enrolled (in the console), the admin's sign-in is held as anyone's.
        let user = try fixture.domain.users.user(handle: "mina")
        let totp = try fixture.domain.secondFactors.startEnrolment(userID: user.id)
        _ = try fixture.domain.secondFactors.confirmEnrolment(userID: user.id, code: totp.code(at: fixture.clock.now()))
        #expect(try Self.verifyEmail(fixture, "mina@example.com").status == 202)
    }
}
