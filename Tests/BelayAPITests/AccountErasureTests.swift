import BelayCore
import BelayDomain
import BelayIdentity
import BelayTestSupport
import BelayUseCases
import Foundation
import Testing

/// `AccountErasure` without HTTP or the command line: a member signed in with Apple (a
/// refresh token kept), deleted as an admin deletes them, with Apple's revocation endpoint
/// played by the provider fixture, which checks the client secret's signature.
@Suite struct AccountErasureTests {
    let world: IdentityProviderWorld
    var provider: IdentityProviderProcess { world.provider }
    var domain: DomainServices { world.domain }

    init() throws {
        world = try IdentityProviderWorld()
    }

    func appleMember(subject: String, refreshToken: String) throws -> SessionGrant {
        try domain.accounts.signIn(ProvenIdentity(method: .apple, subject: subject, email: nil, emailVerified: false, appleRefreshToken: refreshToken),
                                   device: DeviceDescription(name: "iPhone"))
    }

    func appleClient() throws -> AppleAccountClient {
        try AppleAccountClient(settings: AppleClientSettings(
            teamID: provider.appleTeamID, keyID: provider.appleKeyID, privateKeyFile: provider.appleTeamKeyFile, clientID: provider.appleClientID,
            tokenURL: provider.url("/auth/token"), revokeURL: provider.url("/auth/revoke"), timeout: 10, allowPrivateAddresses: true),
            clock: SystemTimeSource())
    }

    @Test func anAdminsDeletionRevokesTheMembersAppleTokenAtAppleBeforeItAnswers() throws {
        let userID = try appleMember(subject: "000111.apple", refreshToken: "r-erasure-1").user.id
        let erasure = AccountErasure(accounts: domain.accounts, appleAccounts: try appleClient())
        let (deletion, aftermath) = try erasure.eraseAccount(userID: userID)
        #expect(deletion.appleRefreshTokens == ["r-erasure-1"])
        #expect(aftermath.appleTokensRevoked == 1)
        #expect(aftermath.problems.isEmpty)
        #expect(try provider.revokedTokens() == ["r-erasure-1"])
        #expect(throws: DomainError.self) { try domain.accounts.profile(userID: userID) }
    }

    @Test func withoutTheClubsAppleKeyTheAftermathSaysWhyTheTokenStays() throws {
        let userID = try appleMember(subject: "000222.apple", refreshToken: "r-erasure-2").user.id
        let erasure = AccountErasure(accounts: domain.accounts, appleAccounts: nil)
        let (_, aftermath) = try erasure.eraseAccount(userID: userID)
        #expect(aftermath.appleTokensRevoked == 0)
        #expect(aftermath.problems == ["1 Apple token(s) of user \(userID) were not revoked: auth.apple.private_key_file is not set"])
        #expect(try provider.revokedTokens().isEmpty)
    }

    @Test func aMembersOwnDeletionRevokesAtAppleOffTheCallersThread() throws {
        let grant = try appleMember(subject: "000333.apple", refreshToken: "r-erasure-3")
        let erasure = AccountErasure(accounts: domain.accounts, appleAccounts: try appleClient())
        _ = try erasure.eraseOwnAccount(userID: grant.user.id, sessionID: grant.session.id, log: { line in Issue.record("unexpected: \(line)") })
        let deadline = Date().addingTimeInterval(10)
        while try provider.revokedTokens().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try provider.revokedTokens() == ["r-erasure-3"])
    }
}
