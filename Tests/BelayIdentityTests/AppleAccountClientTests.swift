import BelayCore
import BelayIdentity
import BelayTestSupport
import Foundation
import Testing

/// The client secret, code exchange and revocation against the provider fixture, which checks
/// every client secret with PyJWT and the team's public key.
@Suite struct AppleAccountClientTests {
    let directory: TemporaryDirectory
    let provider: IdentityProviderProcess
    let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))

    init() throws {
        directory = try TemporaryDirectory()
        provider = try IdentityProviderProcess(in: directory)
    }

    func settings(keyID: String? = nil) -> AppleClientSettings {
        AppleClientSettings(teamID: provider.appleTeamID, keyID: keyID ?? provider.appleKeyID, privateKeyFile: provider.appleTeamKeyFile,
                            clientID: provider.appleClientID, tokenURL: provider.url("/auth/token"),
                            revokeURL: provider.url("/auth/revoke"), timeout: 10, allowPrivateAddresses: true)
    }

    @Test func theClientSecretIsAnES256JWTForApple() throws {
        let client = try AppleAccountClient(settings: settings(), clock: clock)
        let parts = try client.clientSecret().split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let header = try JSONParser.parse(try #require(Crypto.decodeBase64URL(parts[0])))
        let claims = try JSONParser.parse(try #require(Crypto.decodeBase64URL(parts[1])))
        #expect(header["alg"] == "ES256")
        #expect(header["kid"] == .string(provider.appleKeyID))
        #expect(claims["iss"] == .string(provider.appleTeamID))
        #expect(claims["sub"] == .string(provider.appleClientID))
        #expect(claims["aud"] == "https://appleid.apple.com")
        #expect(claims["iat"] == .int(1_800_000_000))
        #expect(claims["exp"] == .int(1_800_000_300))
        #expect(Crypto.decodeBase64URL(parts[2])?.count == 64, "raw r||s, not DER")
    }

    @Test func exchangesACodeForARefreshTokenWithAVerifiedSecret() throws {
        let client = try AppleAccountClient(settings: settings(), clock: clock)
        #expect(try client.exchange(authorizationCode: "code-1") == "r-code-1")
        let request = try #require(try provider.appleRequests().last)
        #expect(request["endpoint"] as? String == "/auth/token")
        #expect(request["verified"] as? Bool == true, "\(request["error"] ?? "")")
        #expect(request["content_type"] as? String == "application/x-www-form-urlencoded")
        let form = try #require(request["form"] as? [String: String])
        #expect(form == ["client_id": provider.appleClientID, "code": "code-1", "grant_type": "authorization_code"])
        let claims = try #require(request["claims"] as? [String: Any])
        #expect(claims["iss"] as? String == provider.appleTeamID)
        #expect(claims["sub"] as? String == provider.appleClientID)
    }

    @Test func revokesARefreshToken() throws {
        let client = try AppleAccountClient(settings: settings(), clock: clock)
        try client.revoke(refreshToken: "r-code-1&more=1")
        #expect(try provider.revokedTokens() == ["r-code-1&more=1"])
        let request = try #require(try provider.appleRequests().last)
        #expect(request["verified"] as? Bool == true)
        #expect((request["form"] as? [String: String])?["token_type_hint"] == "refresh_token")
    }

    @Test func reportsApplesRefusalWithItsCode() throws {
        let client = try AppleAccountClient(settings: settings(), clock: clock)
        do {
            _ = try client.exchange(authorizationCode: "expired-code")
            Issue.record("an expired code was accepted")
        } catch let error as AppleAccountError {
            #expect(error.code == .refused)
            #expect(error.status == 400)
            #expect(error.appleErrorCode == "invalid_grant")
        }
        let wrongKey = try AppleAccountClient(settings: settings(keyID: "OTHERKEY99"), clock: clock)
        do {
            try wrongKey.revoke(refreshToken: "r-1")
            Issue.record("a secret naming another key was accepted")
        } catch let error as AppleRevocationError {
            #expect(error.appleErrorCode == "invalid_client")
            #expect(error.description.contains("key ID"))
        }
        #expect(try provider.revokedTokens().isEmpty)
    }

    @Test func anUnreachableAppleIsReportedAsSuch() throws {
        var settings = settings()
        settings.revokeURL = "http://127.0.0.1:\(try FreePort.next())/auth/revoke"
        let client = try AppleAccountClient(settings: settings, clock: clock)
        #expect { try client.revoke(refreshToken: "r-1") } throws: { ($0 as? AppleAccountError)?.code == .unreachable }
    }

    @Test func refusesAMissingOrWrongKeyFileNamingIt() throws {
        var missing = settings()
        missing.privateKeyFile = directory.file("absent.p8")
        #expect { try AppleAccountClient(settings: missing, clock: clock) } throws: {
            ($0 as? AppleAccountError)?.code == .keyUnusable && "\($0)".contains("absent.p8")
        }
        var wrong = settings()
        wrong.privateKeyFile = directory.file("not-a-key.p8")
        try "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".write(toFile: wrong.privateKeyFile, atomically: true, encoding: .utf8)
        #expect { try AppleAccountClient(settings: wrong, clock: clock) } throws: {
            ($0 as? AppleAccountError)?.code == .keyUnusable && "\($0)".contains("not-a-key.p8")
        }
    }
}
