@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct UserServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture(importCatalog: false) }
    var users: UserService { fixture.domain.users }

    @Test func createsUsersWithUniqueHandlesAndEmails() throws {
        let user = try users.createUser(NewUser(handle: "jisoo", displayName: " Jisoo Kim ", email: "jisoo@example.com"))
        #expect(user.displayName == "Jisoo Kim")
        #expect(user.role == .member)
        #expect(try users.user(handle: "JISOO") == user)
        #expect(refusal { _ = try users.createUser(NewUser(handle: "Jisoo", displayName: "Other")) } == .handleTaken)
        #expect(refusal { _ = try users.createUser(NewUser(handle: "other", displayName: "Other", email: "JISOO@example.com")) } == .emailTaken)
        let invalid = try #require(throws: DomainError.self) { try users.createUser(NewUser(handle: "no spaces", displayName: "x")) }
        #expect(invalid.field == "handle")
        #expect(refusal { _ = try users.createUser(NewUser(handle: "ok", displayName: "x", email: "not-an-email")) } == .invalidInput)
        #expect(refusal { _ = try users.createUser(NewUser(handle: "ok", displayName: "")) } == .invalidInput)
        #expect(try users.setRole(.host, userID: user.id).role == .host)
        #expect(refusal { _ = try users.user(id: 999) } == .userNotFound)
    }

    @Test func adminTokensMayBeGivenAnExpiry() throws {
        let user = try users.createUser(NewUser(handle: "bot", displayName: "Chat bot"))
        let issued = try users.issueToken(userID: user.id, label: "bot", expiresAt: fixture.clock.now().addingTimeInterval(86_400))
        #expect(issued.token.expiresAt != nil)
        #expect(try users.tokens(userID: user.id).first?.expiresAt == issued.token.expiresAt)
        #expect(try users.authenticate(token: issued.secret) != nil)
        fixture.clock.advance(by: 86_401)
        #expect(try users.authenticate(token: issued.secret) == nil)
    }

    @Test func listsUsersByPage() throws {
        for index in 0..<5 { _ = try users.createUser(NewUser(handle: "u\(index)", displayName: "U")) }
        let first = try users.listUsers(limit: 4)
        let second = try users.listUsers(limit: 4, cursor: first.nextCursor)
        #expect(first.items.count == 4)
        #expect(second.items.count == 3) // admin, host and five members
        #expect(second.nextCursor == nil)
    }

    @Test func tokensAuthenticateUntilRevokedAndAreStoredOnlyAsHashes() throws {
        let user = try users.createUser(NewUser(handle: "jisoo", displayName: "Jisoo", role: .host))
        let issued = try users.issueToken(userID: user.id, label: "phone")
        #expect(issued.secret.hasPrefix("belay_"))
        #expect(issued.secret.count == 49)
        #expect(issued.token.prefix == String(issued.secret.prefix(12)))
        let authenticated = try #require(try users.authenticate(token: issued.secret))
        #expect(authenticated.userID == user.id)
        #expect(authenticated.role == .host)
        #expect(authenticated.actor == .user(user.id, role: .host))

        let stored = try fixture.pool.read { db in
            try db.query("SELECT token_hash, prefix FROM api_tokens", [], { (try $0.get("token_hash", as: Data.self), try $0.get("prefix", as: String.self)) })
        }
        #expect(stored.count == 1)
        #expect(stored[0].0.count == 32)
        #expect(!String(decoding: stored[0].0, as: UTF8.self).contains(issued.secret))

        let altered = String(issued.secret.dropLast()) + (issued.secret.hasSuffix("A") ? "B" : "A")
        #expect(try users.authenticate(token: altered) == nil)
        #expect(try users.authenticate(token: "nonsense") == nil)
        #expect(try users.revokeToken(id: issued.token.id).revokedAt != nil)
        #expect(try users.authenticate(token: issued.secret) == nil)
        #expect(refusal { try users.revokeToken(id: 999) } == .tokenNotFound)
        let second = try users.issueToken(userID: user.id)
        #expect(try users.revokeAllTokens(userID: user.id) == 1)
        #expect(try users.authenticate(token: second.secret) == nil)
        #expect(try users.tokens(userID: user.id).allSatisfy { !$0.isActive })
        #expect(refusal { _ = try users.issueToken(userID: 999) } == .userNotFound)
    }

    @Test func lastUseIsWrittenAtMostAboutOnceAMinute() throws {
        let user = try users.createUser(NewUser(handle: "jisoo", displayName: "Jisoo"))
        let issued = try users.issueToken(userID: user.id)
        func lastUsed() throws -> Date? {
            users.settleTokenUseWrites()
            return try users.tokens(userID: user.id).first?.lastUsedAt
        }
        #expect(try lastUsed() == nil)
        _ = try users.authenticate(token: issued.secret)
        let first = try lastUsed()
        #expect(first == fixture.clock.now())
        fixture.clock.advance(by: 59)
        _ = try users.authenticate(token: issued.secret)
        #expect(try lastUsed() == first)
        fixture.clock.advance(by: 2)
        _ = try users.authenticate(token: issued.secret)
        #expect(try lastUsed() == fixture.clock.now())
    }

    @Test func usesOfManyTokensWithinASecondAreWrittenTogether() throws {
        let members = try (0..<3).map { try users.createUser(NewUser(handle: "member\($0)", displayName: "Member \($0)")) }
        let secrets = try members.map { try users.issueToken(userID: $0.id).secret }
        func lastUsed(_ index: Int) throws -> Date? {
            users.settleTokenUseWrites()
            return try users.tokens(userID: members[index].id).first?.lastUsedAt
        }
        func isNear(_ date: Date?, _ expected: Date) -> Bool { date.map { abs($0.timeIntervalSince(expected)) < 0.002 } ?? false }
        let start = fixture.clock.now()
        _ = try users.authenticate(token: secrets[0])
        #expect(isNear(try lastUsed(0), start), "the first use after a quiet second is written at once")
        fixture.clock.advance(by: 0.2)
        _ = try users.authenticate(token: secrets[1])
        #expect(try lastUsed(1) == nil, "within the second, a use waits for the next write")
        fixture.clock.advance(by: 0.9)
        _ = try users.authenticate(token: secrets[2])
        #expect(isNear(try lastUsed(1), start.addingTimeInterval(0.2)))
        #expect(isNear(try lastUsed(2), start.addingTimeInterval(1.1)))
        fixture.clock.advance(by: 0.1)
        let member = try users.createUser(NewUser(handle: "late", displayName: "Late"))
        let late = try users.issueToken(userID: member.id).secret
        _ = try users.authenticate(token: late)
        users.settleTokenUseWrites()
        #expect(try users.tokens(userID: member.id).first?.lastUsedAt == nil)
        users.flushTokenUses()
        #expect(isNear(try users.tokens(userID: member.id).first?.lastUsedAt, start.addingTimeInterval(1.2)), "stopping writes what is left")
    }

    @Test func manyTokenUsesAreWrittenInChunksAndAllArrive() throws {
        let count = UserService.tokenUsesPerWrite + 44
        let members = try (0..<count).map { try users.createUser(NewUser(handle: "bulk\($0)", displayName: "Bulk \($0)")) }
        let secrets = try members.map { try users.issueToken(userID: $0.id).secret }
        _ = try users.authenticate(token: secrets[0])      // written at once: the first use in a quiet second
        fixture.clock.advance(by: 0.1)
        for secret in secrets.dropFirst() { _ = try users.authenticate(token: secret) }
        users.flushTokenUses()
        let written = try members.filter { try users.tokens(userID: $0.id).first?.lastUsedAt != nil }
        #expect(written.count == count, "every use is written, across more than one chunk")
    }
}
