import BelayCore
import BelayIdentity
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// ID tokens signed by PyJWT in a real provider fixture, checked by the verifier against the
/// JWKS it publishes: every refusal, both providers, both algorithms, and the key cache's
/// fetches counted by the fixture.
@Suite struct IdentityTokenVerifierTests {
    static let appleClient = "club.example.belay"
    static let googleWeb = "1234-web.apps.googleusercontent.com"
    static let googleAndroid = "1234-android.apps.googleusercontent.com"
    static let rawNonce = "n0nce-from-the-app"

    let directory: TemporaryDirectory
    let provider: IdentityProviderProcess
    let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))

    init() throws {
        directory = try TemporaryDirectory()
        provider = try IdentityProviderProcess(in: directory)
    }

    var now: Int { Int(clock.now().timeIntervalSince1970) }

    func verifier(_ kind: IdentityProvider = .apple, clientIDs: [String]? = nil) -> IdentityTokenVerifier {
        let ids = clientIDs ?? (kind == .apple ? [Self.appleClient] : [Self.googleWeb, Self.googleAndroid])
        return IdentityTokenVerifier(settings: IdentityTokenVerifierSettings(provider: kind, jwksURL: provider.jwksURL, clientIDs: ids),
                                     clock: clock)
    }

    func appleClaims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": "https://appleid.apple.com", "aud": Self.appleClient, "sub": "001234.abcdef.0987",
            "iat": now - 5, "exp": now + 600, "email": "x7k2@privaterelay.appleid.com",
            "email_verified": "true", "is_private_email": "true",
            "nonce": Crypto.hex(Crypto.sha256(Array(Self.rawNonce.utf8))), "nonce_supported": true,
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func googleClaims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": "https://accounts.google.com", "aud": Self.googleWeb, "azp": Self.googleAndroid,
            "sub": "109876543210", "iat": now - 5, "exp": now + 3600, "email": "member@gmail.com",
            "email_verified": true, "nonce": Self.rawNonce,
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    /// The refusal `token` gets, checked never to repeat the token.
    func refusal(_ token: String, by verifier: IdentityTokenVerifier, nonce: String? = rawNonce) -> IdentityTokenError? {
        do {
            _ = try verifier.verify(token, nonce: nonce)
            return nil
        } catch {
            #expect(!error.detail.contains(token) || token.isEmpty)
            #expect(!error.detail.contains("001234.abcdef.0987") && !error.detail.contains(Self.rawNonce))
            return error
        }
    }

    // MARK: Accepted

    @Test func acceptsApplesRS256TokenWithEmailVerifiedAsAString() throws {
        let token = try provider.sign(claims: appleClaims(), alg: "RS256", kid: "rsa-1")
        let verified = try verifier().verify(token, nonce: Self.rawNonce)
        #expect(verified.provider == .apple)
        #expect(verified.subject == "001234.abcdef.0987")
        #expect(verified.email == "x7k2@privaterelay.appleid.com")
        #expect(verified.emailVerified)
        #expect(verified.isPrivateRelayEmail)
        #expect(verified.issuedAt == Date(timeIntervalSince1970: TimeInterval(now - 5)))
        #expect(verified.expiresAt == Date(timeIntervalSince1970: TimeInterval(now + 600)))
        #expect(verified.tokenDigest == Crypto.hex(Crypto.sha256(Array(token.utf8))))
    }

    @Test func acceptsApplesES256Token() throws {
        let token = try provider.sign(claims: appleClaims(["email_verified": true, "is_private_email": false]), alg: "ES256", kid: "ec-1")
        let verified = try verifier().verify(token, nonce: Self.rawNonce)
        #expect(verified.emailVerified)
        #expect(!verified.isPrivateRelayEmail)
    }

    @Test func acceptsGoogleTokensFromBothIssuersAndAnAudienceArray() throws {
        let google = verifier(.google)
        let first = try provider.sign(claims: googleClaims())
        #expect(try google.verify(first, nonce: Self.rawNonce).subject == "109876543210")
        let second = try provider.sign(claims: googleClaims(["iss": "accounts.google.com", "aud": ["someone-else", Self.googleWeb], "azp": nil]))
        let verified = try google.verify(second, nonce: nil)
        #expect(verified.emailVerified)
        #expect(verified.email == "member@gmail.com")
        #expect(!verified.isPrivateRelayEmail)
        let withoutNonce = try provider.sign(claims: googleClaims(["nonce": nil]))
        #expect(try google.verify(withoutNonce, nonce: nil).provider == .google)
    }

    @Test func toleratesClockSkewWithinTheLeeway() throws {
        let token = try provider.sign(claims: appleClaims(["exp": now - 30, "iat": now + 30]))
        #expect(try verifier().verify(token, nonce: Self.rawNonce).subject == "001234.abcdef.0987")
    }

    // MARK: Algorithms and keys

    @Test func refusesAnUnsignedToken() throws {
        let token = try provider.sign(claims: appleClaims(), alg: "none", kid: "rsa-1")
        #expect(refusal(token, by: verifier())?.code == .algorithmNotAllowed)
    }

    @Test func refusesHS256SignedWithThePublicKeyAsSecret() throws {
        let token = try provider.sign(claims: appleClaims(), alg: "HS256", kid: "rsa-1")
        let error = refusal(token, by: verifier())
        #expect(error?.code == .algorithmNotAllowed)
        #expect(error?.detail.contains("HS256") == true)
    }

    @Test func refusesAnES256TokenNamingAnRSAKey() throws {
        let token = try provider.sign(claims: appleClaims(), alg: "ES256", kid: "rsa-1", signingKey: "ec-1")
        #expect(refusal(token, by: verifier())?.code == .keyMismatch)
    }

    @Test func refusesAKeyOfTheWrongTypeEvenWithoutAnAlgInTheJWK() throws {
        let token = try provider.sign(claims: appleClaims(), alg: "RS256", kid: "rsa-1")
        let jwks = try HTTPTestClient.request(port: provider.port, "GET", "/jwks")
        var set = try #require(jwks.jsonObject)
        var keys = try #require(set["keys"] as? [[String: Any]])
        // The EC key, renamed rsa-1 and without its alg: an RS256 token must not use it.
        var ec = try #require(keys.first { $0["kid"] as? String == "ec-1" })
        ec["kid"] = "rsa-1"
        ec["alg"] = nil
        keys = [ec]
        set["keys"] = keys
        try provider.serveJWKSBody(String(decoding: try JSONSerialization.data(withJSONObject: set), as: UTF8.self))
        let error = refusal(token, by: verifier())
        #expect(error?.code == .keyMismatch)
        #expect(error?.detail.contains("EC P-256") == true)
    }

    @Test func refusesAKeyPublishedForAnotherUseOrAlgorithm() throws {
        let token = try provider.sign(claims: appleClaims(), alg: "RS256", kid: "rsa-1")
        let jwks = try HTTPTestClient.request(port: provider.port, "GET", "/jwks")
        let keys = try #require(jwks.jsonObject?["keys"] as? [[String: Any]])
        let rsa = try #require(keys.first { $0["kid"] as? String == "rsa-1" })
        for (member, value) in [("use", "enc"), ("alg", "RS384")] {
            var changed = rsa
            changed[member] = value
            try provider.serveJWKSBody(String(decoding: try JSONSerialization.data(withJSONObject: ["keys": [changed]]), as: UTF8.self))
            let error = refusal(token, by: verifier())
            #expect(error?.code == .keyMismatch, "\(member)")
            #expect(error?.detail.contains(value) == true)
        }
    }

    @Test func refusesATamperedPayload() throws {
        let token = try provider.sign(claims: appleClaims())
        let parts = token.split(separator: ".").map(String.init)
        let forged = try JSONSerialization.data(withJSONObject: appleClaims(["sub": "someone-else"]))
        let tampered = [parts[0], Crypto.base64URL(Array(forged)), parts[2]].joined(separator: ".")
        #expect(refusal(tampered, by: verifier())?.code == .badSignature)
        let es = try provider.sign(claims: appleClaims(), alg: "ES256", kid: "ec-1").split(separator: ".").map(String.init)
        let wrongLength = [es[0], es[1], Crypto.base64URL(Array(repeating: 7, count: 63))].joined(separator: ".")
        #expect(refusal(wrongLength, by: verifier())?.code == .badSignature)
    }

    @Test func refusesMalformedTokens() throws {
        let good = try provider.sign(claims: appleClaims()).split(separator: ".").map(String.init)
        let notJSON = Crypto.base64URL(Array("{not json".utf8))
        let array = Crypto.base64URL(Array("[1]".utf8))
        let cases = [
            "", "onlyone", "a.b", "\(good[0]).\(good[1]).\(good[2]).extra",
            "\(good[0])=.\(good[1]).\(good[2])",          // padding
            "\(good[0]).\(good[1]).\(good[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"))+",
            "\(notJSON).\(good[1]).\(good[2])", "\(good[0]).\(array).\(good[2])",
            "\(good[0]) .\(good[1]).\(good[2])",
            String(repeating: "a", count: 20_000) + ".b.c",
        ]
        let verifier = verifier()
        for token in cases {
            #expect(refusal(token, by: verifier)?.code == .malformedToken, "\(token.prefix(60))")
        }
        #expect(try provider.jwksFetches() == 0, "a malformed token fetches no keys")
        let noKid = try provider.sign(claims: appleClaims(), headerOverrides: ["kid": NSNull()])
        #expect(refusal(noKid, by: verifier)?.code == .malformedToken)
        let noSubject = try provider.sign(claims: appleClaims(["sub": nil]))
        #expect(refusal(noSubject, by: verifier)?.code == .malformedToken)
        let textExpiry = try provider.sign(claims: appleClaims(["exp": "tomorrow"]))
        #expect(refusal(textExpiry, by: verifier)?.code == .malformedToken)
    }

    // MARK: Claims

    @Test func refusesAnotherIssuer() throws {
        let apple = try provider.sign(claims: appleClaims(["iss": "https://accounts.google.com"]))
        #expect(refusal(apple, by: verifier())?.code == .wrongIssuer)
        let google = try provider.sign(claims: googleClaims(["iss": "https://appleid.apple.com"]))
        #expect(refusal(google, by: verifier(.google))?.code == .wrongIssuer)
    }

    @Test func refusesAnotherAudience() throws {
        let single = try provider.sign(claims: appleClaims(["aud": "com.other.app"]))
        let error = refusal(single, by: verifier())
        #expect(error?.code == .wrongAudience)
        #expect(error?.detail.contains("com.other.app") == true)
        let array = try provider.sign(claims: appleClaims(["aud": ["com.other.app", "com.third.app"]]))
        #expect(refusal(array, by: verifier())?.code == .wrongAudience)
        let missing = try provider.sign(claims: appleClaims(["aud": nil]))
        #expect(refusal(missing, by: verifier())?.code == .wrongAudience)
    }

    @Test func refusesAGoogleTokenObtainedByAnotherParty() throws {
        let token = try provider.sign(claims: googleClaims(["azp": "9999-evil.apps.googleusercontent.com"]))
        #expect(refusal(token, by: verifier(.google))?.code == .wrongAuthorizedParty)
    }

    @Test func refusesAnExpiredToken() throws {
        let token = try provider.sign(claims: appleClaims(["iat": now - 700, "exp": now - 61]))
        #expect(refusal(token, by: verifier())?.code == .expired)
        let fresh = try provider.sign(claims: appleClaims())
        clock.advance(by: 661)
        #expect(refusal(fresh, by: verifier())?.code == .expired)
    }

    @Test func refusesATokenIssuedInTheFuture() throws {
        let token = try provider.sign(claims: appleClaims(["iat": now + 120, "exp": now + 720]))
        #expect(refusal(token, by: verifier())?.code == .issuedInFuture)
    }

    @Test func refusesATokenNotValidYet() throws {
        let token = try provider.sign(claims: appleClaims(["nbf": now + 3_600]))
        let refused = refusal(token, by: verifier())
        #expect(refused?.code == .notYetValid)
        #expect(refused?.detail.contains("nbf") == true, "\(String(describing: refused))")
        // Within the leeway, and in the past, it is accepted.
        #expect(refusal(try provider.sign(claims: appleClaims(["nbf": now + 30])), by: verifier()) == nil)
        #expect(refusal(try provider.sign(claims: googleClaims(["nbf": now - 60])), by: verifier(.google)) == nil)
    }

    @Test func checksTheNonceAsEachProviderCarriesIt() throws {
        let apple = verifier()
        let raw = try provider.sign(claims: appleClaims(["nonce": Self.rawNonce]))
        #expect(refusal(raw, by: apple)?.code == .wrongNonce, "Apple's token carries the nonce's SHA-256, not the nonce")
        let hashed = try provider.sign(claims: appleClaims())
        #expect(refusal(hashed, by: apple, nonce: "another-nonce")?.code == .wrongNonce)
        let none = try provider.sign(claims: appleClaims(["nonce": nil]))
        #expect(refusal(none, by: apple)?.code == .missingNonce)

        let google = verifier(.google)
        let hashedForGoogle = try provider.sign(claims: googleClaims(["nonce": Crypto.hex(Crypto.sha256(Array(Self.rawNonce.utf8)))]))
        #expect(refusal(hashedForGoogle, by: google)?.code == .wrongNonce)
        let missing = try provider.sign(claims: googleClaims(["nonce": nil]))
        #expect(refusal(missing, by: google)?.code == .missingNonce)
    }

    // MARK: The key set

    @Test func anUnknownKeyFetchesTheKeysAtMostOncePerInterval() throws {
        let verifier = verifier()
        _ = try verifier.verify(try provider.sign(claims: appleClaims()), nonce: Self.rawNonce)
        #expect(try provider.jwksFetches() == 1)
        let stranger = try provider.sign(claims: appleClaims(), kid: "stranger-1", signingKey: "rsa-1")
        #expect(refusal(stranger, by: verifier)?.code == .unknownKey)
        #expect(refusal(stranger, by: verifier)?.code == .unknownKey)
        #expect(try provider.jwksFetches() == 1, "fetched within the interval already")
        _ = try verifier.verify(try provider.sign(claims: appleClaims(), alg: "ES256", kid: "ec-1"), nonce: Self.rawNonce)
        #expect(try provider.jwksFetches() == 1, "known keys need no fetch")

        clock.advance(by: 61)
        let later = try provider.sign(claims: appleClaims(), kid: "stranger-1", signingKey: "rsa-1")
        #expect(refusal(later, by: verifier)?.code == .unknownKey)
        #expect(try provider.jwksFetches() == 2)
    }

    @Test func keptKeysPastHalfTheirAgeAreRefreshedInTheBackgroundWhileTheyAnswer() throws {
        let verifier = IdentityTokenVerifier(settings: IdentityTokenVerifierSettings(provider: .apple, jwksURL: provider.jwksURL,
                                                                                     clientIDs: [Self.appleClient], keysMaximumAge: 600),
                                             clock: clock)
        let token = try provider.sign(claims: appleClaims())
        #expect(verifier.needsKeyFetch(token), "nothing is kept before the first fetch")
        _ = try verifier.verify(token, nonce: Self.rawNonce)
        #expect(try provider.jwksFetches() == 1)
        #expect(!verifier.needsKeyFetch(token))
        #expect(verifier.needsKeyFetch(try provider.sign(claims: appleClaims(), kid: "stranger-1", signingKey: "rsa-1")))
        #expect(!verifier.needsKeyFetch("not a token"), "a token that cannot be read is refused as it is")

        clock.advance(by: 200)
        _ = try verifier.verify(try provider.sign(claims: appleClaims()), nonce: Self.rawNonce)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try provider.jwksFetches() == 1, "young keys are not refreshed")

        clock.advance(by: 150)
        _ = try verifier.verify(try provider.sign(claims: appleClaims()), nonce: Self.rawNonce)
        // Refreshed, the keys answer for another full age from the refresh: 590 s after it, the
        // first fetch's keys would be 940 s old, past their 600.
        clock.advance(by: 590)
        let fresh = try provider.sign(claims: appleClaims())
        let deadline = Date().addingTimeInterval(10)
        while verifier.needsKeyFetch(fresh), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!verifier.needsKeyFetch(fresh), "keys past half their age are fetched again, in the background")
        #expect(try provider.jwksFetches() == 2)
    }

    @Test func theFirstVerificationFetchesTheKeysLazily() throws {
        let verifier = verifier()
        #expect(try provider.jwksFetches() == 0)
        let stranger = try provider.sign(claims: appleClaims(), kid: "stranger-1", signingKey: "rsa-1")
        #expect(refusal(stranger, by: verifier)?.code == .unknownKey)
        #expect(try provider.jwksFetches() == 1)
        _ = try verifier.verify(try provider.sign(claims: appleClaims()), nonce: Self.rawNonce)
        #expect(try provider.jwksFetches() == 1)
    }

    @Test func picksUpARotatedKey() throws {
        let verifier = verifier()
        _ = try verifier.verify(try provider.sign(claims: appleClaims()), nonce: Self.rawNonce)
        let newKey = try provider.rotate(kind: "ec", retiring: ["rsa-1"])
        clock.advance(by: 61)
        let token = try provider.sign(claims: appleClaims(), alg: "ES256", kid: newKey)
        #expect(try verifier.verify(token, nonce: Self.rawNonce).subject == "001234.abcdef.0987")
        #expect(try provider.jwksFetches() == 2)
    }

    @Test func concurrentTokensNamingANewKeyCauseOneFetch() throws {
        let verifier = verifier()
        let tokens = try (0..<8).map { _ in try provider.sign(claims: appleClaims(), alg: "ES256", kid: "ec-1") }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: tokens.count) { index in
            if (try? verifier.verify(tokens[index], nonce: Self.rawNonce)) == nil { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try provider.jwksFetches() == 1)
    }

    @Test func refusesAMalformedKeySet() throws {
        let token = try provider.sign(claims: appleClaims())
        try provider.serveJWKSBody("<html>not a key set</html>")
        #expect(refusal(token, by: verifier())?.code == .malformedKeys)
        try provider.serveJWKSBody(#"{"keys":"rsa-1"}"#)
        #expect(refusal(token, by: verifier())?.code == .malformedKeys)
        try provider.serveJWKSBody(#"{"keys":[{"kty":"RSA","kid":"rsa-1","n":"AQAB","e":"AQAB"}]}"#)
        let error = refusal(token, by: verifier())
        #expect(error?.code == .malformedKeys)
        #expect(error?.detail.contains("rsa-1") == true)
    }

    @Test func keysUnavailableWhenTheProviderIsDown() throws {
        try provider.setDown(true)
        let verifier = verifier()
        let token = try provider.sign(claims: appleClaims())
        let error = refusal(token, by: verifier)
        #expect(error?.code == .keysUnavailable)
        #expect(error?.retryAfterSeconds == 30)
        #expect(error?.detail.contains("503") == true)

        try provider.setDown(false)
        clock.advance(by: 10)
        let soon = refusal(token, by: verifier)
        #expect(soon?.code == .keysUnavailable, "no second fetch right after a failed one")
        #expect(soon?.retryAfterSeconds == 20)
        #expect(try provider.jwksFetches() == 1)
        clock.advance(by: 21)
        #expect(try verifier.verify(token, nonce: Self.rawNonce).provider == .apple)
        #expect(try provider.jwksFetches() == 2)
    }

    @Test func keptKeysStillAnswerWhileTheProviderIsDown() throws {
        let verifier = IdentityTokenVerifier(
            settings: IdentityTokenVerifierSettings(provider: .apple, jwksURL: provider.jwksURL, clientIDs: [Self.appleClient],
                                                    keysMaximumAge: 3600),
            clock: clock)
        _ = try verifier.verify(try provider.sign(claims: appleClaims()), nonce: Self.rawNonce)
        try provider.setDown(true)
        clock.advance(by: 7200)
        let token = try provider.sign(claims: appleClaims())
        #expect(try verifier.verify(token, nonce: Self.rawNonce).subject == "001234.abcdef.0987", "old keys answer when a refresh fails")
        #expect(try provider.jwksFetches() == 2)
        let stranger = try provider.sign(claims: appleClaims(), kid: "stranger-1", signingKey: "rsa-1")
        clock.advance(by: 61)
        #expect(refusal(stranger, by: verifier)?.code == .keysUnavailable)
    }

    @Test func anUnreachableKeySetIsUnavailable() throws {
        let port = try FreePort.next()
        let verifier = IdentityTokenVerifier(
            settings: IdentityTokenVerifierSettings(provider: .google, jwksURL: "http://127.0.0.1:\(port)/jwks", clientIDs: [Self.googleWeb]),
            clock: clock)
        let error = refusal(try provider.sign(claims: googleClaims()), by: verifier)
        #expect(error?.code == .keysUnavailable)
        #expect(error?.retryAfterSeconds == 30)
    }

    @Test func privateAddressesCanBeRefused() throws {
        let verifier = IdentityTokenVerifier(
            settings: IdentityTokenVerifierSettings(provider: .apple, jwksURL: provider.jwksURL, clientIDs: [Self.appleClient],
                                                    allowPrivateAddresses: false),
            clock: clock)
        let error = refusal(try provider.sign(claims: appleClaims()), by: verifier)
        #expect(error?.code == .keysUnavailable)
        #expect(error?.detail.contains("127.0.0.1 is a loopback") == true)
        #expect(try provider.jwksFetches() == 0)
    }
}
