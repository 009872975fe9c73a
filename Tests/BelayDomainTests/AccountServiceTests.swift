@testable import BelayDomain
import BelayCore
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct AccountServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture() }
    var accounts: AccountService { fixture.domain.accounts }

    static func apple(_ subject: String, email: String? = nil, verified: Bool = true, name: String? = "Jisoo Kim",
                      digest: String = Crypto.hex(Crypto.randomBytes(16))) -> ProvenIdentity {
        ProvenIdentity(method: .apple, subject: subject, email: email, emailVerified: verified, name: name, tokenDigest: digest,
                       tokenExpiresAt: DomainFixture.start.addingTimeInterval(600))
    }

    func fixture(signUp: SignUpMode) throws -> DomainFixture {
        try DomainFixture(settings: BuiltInSettings.domain { $0.accounts.signUp = signUp }, importCatalog: false)
    }

    @Test func firstSignInCreatesTheAccountAndTheNextFindsIt() throws {
        let first = try accounts.signIn(Self.apple("001.apple.sub", email: "jisoo@privaterelay.appleid.com"),
                                        device: DeviceDescription(name: "Jisoo's iPhone", platform: "ios"))
        #expect(first.accountCreated)
        #expect(first.user.handle == "jisoo.kim")
        #expect(first.user.displayName == "Jisoo Kim")
        #expect(first.user.role == .member)
        #expect(first.accessToken.hasPrefix("belay_"))
        #expect(first.refreshToken.hasPrefix("belay_r_"))
        let authenticated = try #require(try fixture.domain.users.authenticate(token: first.accessToken))
        #expect(authenticated.userID == first.user.id)
        #expect(authenticated.sessionID == first.session.id)

        // Apple sends the name only the first time.
        let second = try accounts.signIn(Self.apple("001.apple.sub", name: nil), device: DeviceDescription())
        #expect(!second.accountCreated)
        #expect(second.user.id == first.user.id)
        #expect(try accounts.sessions(userID: first.user.id).count == 2)
    }

    @Test func anIDTokenWorksOnce() throws {
        let identity = Self.apple("002", digest: "same-digest")
        _ = try accounts.signIn(identity, device: DeviceDescription())
        #expect(refusal { _ = try accounts.signIn(identity, device: DeviceDescription()) } == .tokenAlreadyUsed)
    }

    @Test func aVerifiedEmailLinksToTheAccountWithItAndAnUnverifiedOneNever() throws {
        let member = try fixture.domain.users.createUser(NewUser(handle: "minji", displayName: "Minji", email: "Minji@Example.com"))
        let unverified = try accounts.signIn(Self.apple("003", email: "minji@example.com", verified: false), device: DeviceDescription())
        #expect(unverified.accountCreated)
        #expect(unverified.user.id != member.id)
        #expect(unverified.user.email == nil)
        let verified = try accounts.signIn(ProvenIdentity(method: .google, subject: "google-3", email: "minji@example.com", emailVerified: true),
                                           device: DeviceDescription())
        #expect(!verified.accountCreated)
        #expect(verified.user.id == member.id)
    }

    @Test func signUpModes() throws {
        let closed = try fixture(signUp: .closed)
        #expect(refusal { _ = try closed.domain.accounts.signIn(Self.apple("004"), device: DeviceDescription()) } == .signUpClosed)
        let existing = try closed.domain.users.createUser(NewUser(handle: "yuna", displayName: "Yuna", email: "yuna@example.com"))
        let linked = try closed.domain.accounts.signIn(ProvenIdentity(method: .email, subject: "yuna@example.com", email: "yuna@example.com",
                                                                      emailVerified: true), device: DeviceDescription())
        #expect(linked.user.id == existing.id)

        let invite = try fixture(signUp: .invite)
        let accounts = invite.domain.accounts
        #expect(refusal { _ = try accounts.signIn(Self.apple("005"), device: DeviceDescription()) } == .inviteRequired)
        #expect(refusal { _ = try accounts.signIn(Self.apple("005"), device: DeviceDescription(), inviteCode: "NOPE") } == .invalidInvite)
        #expect(refusal { _ = try invite.domain.invites.create(uses: 1, expiresAt: DomainFixture.start.addingTimeInterval(60),
                                                               by: .user(invite.host.id + 100, role: .member)) } == .notPermitted)
        let code = try invite.domain.invites.create(uses: 1, expiresAt: DomainFixture.start.addingTimeInterval(86_400), by: invite.hostActor)
        #expect(try accounts.signIn(Self.apple("005"), device: DeviceDescription(), inviteCode: code.code).accountCreated)
        #expect(refusal { _ = try accounts.signIn(Self.apple("006"), device: DeviceDescription(), inviteCode: code.code) } == .invalidInvite)
        let later = try invite.domain.invites.create(uses: 5, expiresAt: DomainFixture.start.addingTimeInterval(86_400), by: invite.hostActor)
        _ = try invite.domain.invites.revoke(id: later.id, by: .user(invite.admin.id, role: .admin))
        #expect(refusal { _ = try accounts.signIn(Self.apple("007"), device: DeviceDescription(), inviteCode: later.code) } == .invalidInvite)
        let expiring = try invite.domain.invites.create(uses: 5, expiresAt: DomainFixture.start.addingTimeInterval(60), by: invite.hostActor)
        invite.clock.advance(by: 61)
        #expect(refusal { _ = try accounts.signIn(Self.apple("008"), device: DeviceDescription(), inviteCode: expiring.code) } == .invalidInvite)
        // A refused sign-up wrote nothing: no half-made account.
        let count = try invite.pool.read { try $0.scalar("SELECT count(*) FROM users", as: Int.self) }
        #expect(count == 3)
    }

    @Test func refreshRotatesAndAReusedTokenEndsTheSession() throws {
        let grant = try accounts.signIn(Self.apple("010"), device: DeviceDescription())
        fixture.clock.advance(by: 30)
        let next = try accounts.refresh(token: grant.refreshToken)
        #expect(next.session.id == grant.session.id)
        #expect(next.refreshToken != grant.refreshToken)
        #expect(try fixture.domain.users.authenticate(token: next.accessToken) != nil)
        // The old refresh token presented again: someone else has it. The whole session ends.
        #expect(refusal { _ = try accounts.refresh(token: grant.refreshToken) } == .refreshTokenReused)
        #expect(refusal { _ = try accounts.refresh(token: next.refreshToken) } == .invalidRefreshToken)
        #expect(try fixture.domain.users.authenticate(token: next.accessToken) == nil)
        #expect(try fixture.domain.users.authenticate(token: grant.accessToken) == nil)
        #expect(refusal { _ = try accounts.refresh(token: "belay_r_nonsense") } == .invalidRefreshToken)
    }

    @Test func accessTokensExpireAndIdleSessionsEnd() throws {
        let grant = try accounts.signIn(Self.apple("011"), device: DeviceDescription())
        fixture.clock.advance(by: 3_601)
        #expect(try fixture.domain.users.authenticate(token: grant.accessToken) == nil)
        let next = try accounts.refresh(token: grant.refreshToken)
        fixture.clock.advance(by: 60 * 86_400 + 1)
        #expect(refusal { _ = try accounts.refresh(token: next.refreshToken) } == .invalidRefreshToken)
    }

    @Test func endingASessionSignsOutThatDeviceOnly() throws {
        let phone = try accounts.signIn(Self.apple("012"), device: DeviceDescription(name: "Phone", platform: "ios"))
        let tablet = try accounts.signIn(Self.apple("012"), device: DeviceDescription(name: "Tablet", platform: "ios"))
        try accounts.endSession(id: phone.session.id, userID: phone.user.id)
        #expect(try fixture.domain.users.authenticate(token: phone.accessToken) == nil)
        #expect(try fixture.domain.users.authenticate(token: tablet.accessToken) != nil)
        #expect(try accounts.sessions(userID: phone.user.id).map(\.deviceName) == ["Tablet"])
        let stranger = try fixture.member()
        #expect(refusal { try accounts.endSession(id: tablet.session.id, userID: stranger.id) } == .sessionNotFound)
        #expect(refusal { _ = try accounts.signIn(Self.apple("013"), device: DeviceDescription(platform: "symbian")) } == .invalidInput)
    }

    @Test func emailCodesWorkOnceForTenMinutesAndFiveWrongOnesVoidThem() throws {
        let challenge = try accounts.startEmailSignIn(email: " Hana@Example.com ", locale: .ja)
        #expect(challenge.email == "hana@example.com")
        #expect(challenge.code.count == 6 && challenge.code.allSatisfy(\.isNumber))
        #expect(challenge.locale == .ja)
        let stored = try fixture.pool.read { db in
            try db.query("SELECT code_hash, link_hash FROM email_challenges", []) { [try $0.get("code_hash", as: Data.self), try $0.get("link_hash", as: Data.self)] }
        }
        #expect(stored.count == 1)
        #expect(!stored[0].contains { String(decoding: $0, as: UTF8.self).contains(challenge.code) || String(decoding: $0, as: UTF8.self).contains(challenge.linkToken) })
        let wrong = challenge.code == "000000" ? "111111" : "000000"
        #expect(refusal { _ = try accounts.verifyEmailCode(email: "hana@example.com", code: wrong) } == .invalidEmailCode)
        let identity = try accounts.verifyEmailCode(email: "HANA@example.com", code: challenge.code)
        #expect(identity.subject == "hana@example.com" && identity.emailVerified)
        #expect(refusal { _ = try accounts.verifyEmailCode(email: "hana@example.com", code: challenge.code) } == .invalidEmailCode)

        let second = try accounts.startEmailSignIn(email: "hana@example.com", locale: nil)
        for _ in 0..<5 { #expect(refusal { _ = try accounts.verifyEmailCode(email: "hana@example.com", code: second.code == "000000" ? "111111" : "000000") } == .invalidEmailCode) }
        #expect(refusal { _ = try accounts.verifyEmailCode(email: "hana@example.com", code: second.code) } == .invalidEmailCode)
        #expect(refusal { _ = try accounts.verifyEmailLink(token: second.linkToken) } == .invalidEmailCode)

        let third = try accounts.startEmailSignIn(email: "hana@example.com", locale: nil)
        fixture.clock.advance(by: 601)
        #expect(refusal { _ = try accounts.verifyEmailLink(token: third.linkToken) } == .invalidEmailCode)
        let fourth = try accounts.startEmailSignIn(email: "hana@example.com", locale: nil)
        #expect(try accounts.verifyEmailLink(token: fourth.linkToken).subject == "hana@example.com")
        #expect(refusal { _ = try accounts.startEmailSignIn(email: "not an address", locale: nil) } == .invalidInput)
    }

    @Test func profileHandlesAreUniqueAfterNFKCAndCaseFolding() throws {
        let grant = try accounts.signIn(Self.apple("020"), device: DeviceDescription())
        let updated = try accounts.updateProfile(userID: grant.user.id, ProfileChange(displayName: "Jisoo K.", handle: "ｊｉｓｏｏ", locale: .en,
                                                                                       showNameOnSharePages: false))
        #expect(updated.user.handle == "jisoo")
        #expect(updated.user.displayName == "Jisoo K.")
        #expect(updated.locale == .en)
        #expect(!updated.showNameOnSharePages)
        #expect(refusal { _ = try accounts.updateProfile(userID: grant.user.id, ProfileChange(handle: "Ａdmin")) } == .invalidInput)
        #expect(refusal { _ = try accounts.updateProfile(userID: grant.user.id, ProfileChange(handle: "HOST")) } == .invalidInput)
        #expect(refusal { _ = try accounts.updateProfile(userID: grant.user.id, ProfileChange(handle: "ab")) } == .invalidInput)
        #expect(refusal { _ = try accounts.updateProfile(userID: grant.user.id, ProfileChange(handle: "deleted-7")) } == .invalidInput)
        let other = try accounts.signIn(Self.apple("021"), device: DeviceDescription())
        #expect(refusal { _ = try accounts.updateProfile(userID: other.user.id, ProfileChange(handle: "JISOO")) } == .handleTaken)
        #expect(refusal { _ = try accounts.updateProfile(userID: other.user.id, ProfileChange(displayName: "")) } == .invalidInput)

        // A reserved handle an admin was given at the shell can be sent back unchanged (an app
        // sends the whole profile form); choosing it is still refused to everyone else.
        let admin = try fixture.domain.users.createUser(NewUser(handle: "support", displayName: "Support", role: .admin))
        let kept = try accounts.updateProfile(userID: admin.id, ProfileChange(displayName: "Club Support", handle: "Support"))
        #expect(kept.user.handle.lowercased() == "support" && kept.user.displayName == "Club Support")
        #expect(refusal { _ = try accounts.updateProfile(userID: admin.id, ProfileChange(handle: "root")) } == .invalidInput)
    }

    @Test func handlesAreMadeFromNamesInAnyScript() throws {
        #expect(HandleRule.base(from: "Zoë Müller") == "zoe.muller")
        #expect(HandleRule.base(from: "") == "climber")
        let korean = HandleRule.base(from: "김지수")
        #expect(HandleRule.isWellFormed(korean) && korean.count >= 3)
        let first = try accounts.signIn(Self.apple("030", name: "Alex"), device: DeviceDescription())
        let second = try accounts.signIn(Self.apple("031", name: "Alex"), device: DeviceDescription())
        #expect(first.user.handle == "alex")
        #expect(second.user.handle == "alex2")
    }

    @Test func twoFirstSignInsOfOneIdentityAtOnceMakeOneAccount() throws {
        let outcomes = Mutex<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let grant = try? accounts.signIn(Self.apple("race-sub"), device: DeviceDescription()) {
                outcomes.withLock { $0.append(grant.user.id) }
            }
        }
        let ids = outcomes.withLock { $0 }
        #expect(ids.count == 8)
        #expect(Set(ids).count == 1)
        let identities = try fixture.pool.read { try $0.scalar("SELECT count(*) FROM identities WHERE subject = 'race-sub'", as: Int.self) }
        #expect(identities == 1)
    }

    @Test func firstSignInsAnsweredWithoutWaitingAlsoMakeOneAccount() throws {
        let done = DispatchGroup()
        let ids = Mutex<[Int64]>([])
        let failures = Mutex<[String]>([])
        for _ in 0..<8 {
            done.enter()
            accounts.signIn(Self.apple("deferred-race"), device: DeviceDescription()) { outcome in
                switch outcome {
                case let .success(grant): ids.withLock { $0.append(grant.user.id) }
                case let .failure(error): failures.withLock { $0.append("\(error)") }
                }
                done.leave()
            }
        }
        done.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(Set(ids.withLock { $0 }).count == 1)
        #expect(ids.withLock { $0 }.count == 8)
        // A refresh answered the same way rotates like the waiting one.
        let grant = try accounts.signIn(Self.apple("deferred-refresh"), device: DeviceDescription())
        let refreshed = DispatchSemaphore(value: 0)
        let next = Mutex<Result<SessionGrant, any Error>?>(nil)
        accounts.refresh(token: grant.refreshToken) { outcome in
            next.withLock { $0 = outcome }
            refreshed.signal()
        }
        refreshed.wait()
        #expect(try next.withLock { $0 }?.get().session.id == grant.session.id)
        #expect(refusal { _ = try accounts.refresh(token: grant.refreshToken) } == .refreshTokenReused)
    }

    @Test func deletingNeedsARecentSignIn() throws {
        let grant = try accounts.signIn(Self.apple("040"), device: DeviceDescription())
        fixture.clock.advance(by: 601)
        #expect(refusal { _ = try accounts.deleteOwnAccount(userID: grant.user.id, sessionID: grant.session.id) } == .recentSignInRequired)
        #expect(refusal { _ = try accounts.deleteOwnAccount(userID: grant.user.id, sessionID: nil) } == .recentSignInRequired)
        let fresh = try accounts.signIn(Self.apple("040"), device: DeviceDescription())
        let deletion = try accounts.deleteOwnAccount(userID: grant.user.id, sessionID: fresh.session.id)
        #expect(deletion.userID == grant.user.id)
        #expect(refusal { _ = try accounts.profile(userID: grant.user.id) } == .userNotFound)
        #expect(refusal { _ = try accounts.deleteAccount(userID: grant.user.id) } == .userNotFound)
    }

    @Test func deletingAnAccountTellsTheClubsWebhooksOnlyTheID() throws {
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/belay", events: [.userDeleted], by: .commandLine)
        let grant = try accounts.signIn(Self.apple("050", email: "gone@example.com"), device: DeviceDescription())
        _ = try accounts.deleteOwnAccount(userID: grant.user.id, sessionID: grant.session.id)
        let bodies: [String] = try fixture.pool.read { db in
            try db.query("SELECT type, body FROM webhook_events", []) { row in
                "\(try row.get("type", as: String.self)) \(String(decoding: try row.get("body", as: Data.self), as: UTF8.self))"
            }
        }
        #expect(bodies.count == 1)
        #expect(bodies.first?.hasPrefix("user.deleted ") == true)
        #expect(bodies.first?.contains("\"data\":{\"id\":\(grant.user.id)}") == true, "\(bodies)")
        #expect(bodies.first?.contains("gone@example.com") == false)
    }

    /// Every column of every table that refers to a user, on the engine of the run: after the
    /// member is deleted, none of their rows holds their name, handle, email or provider subject.
    @Test func aDeletedMemberLeavesNoPersonalDataInAnyTableThatRefersToThem() throws {
        let grant = try accounts.signIn(ProvenIdentity(method: .google, subject: "google-sub-9931", email: "sora.park@example.com",
                                                       emailVerified: true, name: "Sora Park"), device: DeviceDescription(name: "Sora's Pixel", platform: "android"))
        let member = grant.user
        let meetup = try fixture.meetup()
        fixture.clock.advance(by: 3_600)
        let reward = try #require(try fixture.checkedIn(member, at: meetup).reward)
        _ = try fixture.domain.shares.record(NewShareEvent(rewardID: reward.id, target: "instagram_stories", activityType: nil,
                                                           completed: true, error: nil, clientEventID: "share-1"),
                                             by: .user(member.id, role: .member))
        _ = try accounts.startEmailSignIn(email: "sora.park@example.com", locale: nil)
        _ = try fixture.domain.calendar.feedToken(memberID: member.id)
        let fresh = try accounts.signIn(ProvenIdentity(method: .google, subject: "google-sub-9931", email: "sora.park@example.com",
                                                       emailVerified: true), device: DeviceDescription())
        let deletion = try accounts.deleteOwnAccount(userID: member.id, sessionID: fresh.session.id)
        #expect(deletion.revokedRewardIDs == [reward.id])

        let secrets = ["Sora", "sora", "google-sub-9931", "example.com", "Pixel"]
        let references = try fixture.pool.read { db in try Self.userReferences(in: db) }
        #expect(references.count >= 10, "found \(references)")
        var inspected = 0
        for (table, column) in references + [("users", "id")] {
            let rows: [[String: String]] = try fixture.pool.read { db in
                try db.query("SELECT * FROM \(table) WHERE \(column) = ?", [member.id]) { row in
                    var values: [String: String] = [:]
                    for index in 0..<row.count {
                        if case let .text(text) = row.value(index) { values["\(index)"] = text }
                        if case let .blob(data) = row.value(index) { values["\(index)"] = String(decoding: data, as: UTF8.self) }
                    }
                    return values
                }
            }
            for row in rows {
                inspected += 1
                for (_, value) in row {
                    for secret in secrets { #expect(!value.contains(secret), "\(table).\(column) still holds \(secret): \(value)") }
                }
            }
        }
        #expect(inspected >= 5)
        let emails = try fixture.pool.read { try $0.scalar("SELECT count(*) FROM email_challenges", as: Int.self) }
        #expect(emails == 0)
        // Attendance stays, anonymous: the meetup's history still counts the check-in.
        let attended = try fixture.pool.read { try $0.scalar("SELECT count(*) FROM attendances WHERE member_id = ? AND status = 'checked_in'", [member.id], as: Int.self) }
        #expect(attended == 1)
        let tombstone = try fixture.domain.users.user(id: member.id)
        #expect(tombstone.handle == "deleted-\(member.id)")
        #expect(tombstone.email == nil)
    }

    /// `(table, column)` for every foreign key to `users(id)`, read from the schema itself.
    static func userReferences(in db: Database) throws -> [(String, String)] {
        if TestDatabase.isPostgreSQL {
            // A reward's member refers to users on both engines, but PostgreSQL has no foreign key
            // for it (Migrations/postgresql/0019_check_in_references_checked_by_belay.sql).
            return try [("rewards", "member_id")] + db.query("""
                SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc
                JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
                JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
                WHERE tc.constraint_type = 'FOREIGN KEY' AND ccu.table_name = 'users' AND tc.table_schema = current_schema()
                ORDER BY 1, 2
                """, []) { (try $0.get("table_name"), try $0.get("column_name")) }
        }
        let tables: [String] = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", []) { try $0.get("name") }
        var references: [(String, String)] = []
        for table in tables {
            references += try db.query("SELECT \"table\" AS target, \"from\" AS source FROM pragma_foreign_key_list('\(table)')", []) {
                (try $0.get("target", as: String.self), try $0.get("source", as: String.self))
            }.filter { $0.0 == "users" }.map { (table, $0.1) }
        }
        return references
    }
}
