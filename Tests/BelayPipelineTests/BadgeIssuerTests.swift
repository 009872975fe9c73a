@testable import BelayDomain
@testable import BelayPipeline
import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// Badge keys, tokens and the revocation list, without a server.
@Suite struct BadgeIssuerTests {
    func issuer(_ directory: TemporaryDirectory) -> BadgeIssuer {
        BadgeIssuer(settings: BadgeSettings(publicBaseURL: "https://belay.example/", clubName: "Belay Climbing Club",
                                            keysDirectory: URL(fileURLWithPath: directory.file("badge-keys"))))
    }

    func facts(rewardID: Int64 = 7) -> BadgeIssuer.Facts {
        BadgeIssuer.Facts(rewardID: rewardID, memberID: 3,
                          hold: Hold(id: "jug-gold", name: "Gold Jug", type: "jug", color: "#FFD700", rarity: .epic,
                                     artworkPath: "holds/jug-gold.png", milestoneOnly: true, retiredAt: nil),
                          milestone: 1, placeName: "더클라임 강남점", dateText: "2026.11.29 (일)",
                          checkedInAt: Date(timeIntervalSince1970: 1_795_962_600))
    }

    @Test func tokensAreSignedReproduciblyAndVerify() throws {
        let directory = try TemporaryDirectory()
        let badges = issuer(directory)
        let token = try badges.credential(facts())
        #expect(try badges.credential(facts()) == token, "the same reward and key give the same token")
        let verdict = badges.verify(token)
        #expect(verdict.isValid)
        #expect(verdict.rewardID == 7)
        #expect(verdict.holdName == "Gold Jug")
        let parts = try #require(CompactJWT.parts(of: token))
        #expect(parts.header["alg"]?.stringValue == "EdDSA")
        #expect(parts.payload["iss"]?.stringValue == "https://belay.example/issuer")
        #expect(parts.payload["nbf"] == 1_795_962_600)
        #expect(parts.payload["validFrom"]?.stringValue == "2026-11-29T14:30:00Z")
        let achievement = parts.payload["credentialSubject"]?["achievement"]
        #expect(achievement?["image"]?["id"]?.stringValue == "https://belay.example/holds/jug-gold/artwork.png")
        #expect(achievement?["tag"]?.arrayValue?.contains("rarity:epic") == true)
        // The member appears only as a salted hash.
        let text = String(decoding: JSONValue.object(parts.payload).jsonBytes, as: UTF8.self)
        #expect(!text.contains("belay-member:3"))
        // The key file is private.
        let key = try badges.keys.current()
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("badge-keys/\(key.thumbprint).key"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aChangedTokenOrAForeignKeyDoesNotVerifyButARotatedOneDoes() throws {
        let directory = try TemporaryDirectory()
        let badges = issuer(directory)
        let token = try badges.credential(facts())
        var pieces = token.split(separator: ".").map(String.init)
        pieces[2] = String(pieces[2].reversed())
        #expect(!badges.verify(pieces.joined(separator: ".")).isValid)
        #expect(badges.verify("not.a.jwt").reason != nil)

        let other = issuer(try TemporaryDirectory())
        let foreign = other.verify(token)
        #expect(!foreign.isValid)
        #expect(foreign.reason?.contains("never published") == true)

        let first = try badges.keys.current()
        let second = try badges.keys.rotate()
        #expect(first != second)
        #expect(badges.verify(token).isValid, "an earlier badge verifies after a rotation")
        #expect(try badges.keys.all().map(\.thumbprint) == [second.thumbprint, first.thumbprint])
    }

    @Test func theRevocationListSetsTheBitsOfRevokedRewards() throws {
        let directory = try TemporaryDirectory()
        let badges = issuer(directory)
        let list = try badges.revocationList(revoked: [1, 9], highestRewardID: 12, now: Date(timeIntervalSince1970: 1_800_000_000))
        let credential = try #require(CompactJWT.parts(of: try badges.credential(facts())))
        let status = try #require(credential.payload["credentialStatus"]?.objectValue)
        #expect(status["statusListCredential"]?.stringValue == badges.statusListURL(for: try badges.keys.current()))
        let parts = try #require(CompactJWT.parts(of: list))
        #expect(parts.isSigned(by: try badges.keys.current().publicKey))
        let subject = try #require(parts.payload["credentialSubject"]?.objectValue)
        let encoded = try #require(subject["encodedList"]?.stringValue)
        #expect(encoded.hasPrefix("u"))
        let gzipped = try #require(Crypto.decodeBase64URL(String(encoded.dropFirst())))
        #expect(gzipped.prefix(2) == [0x1F, 0x8B])
    }
}
