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

    @Test func theKeysRevisionFollowsAKeyMadeHereAtOnceAndOneMadeElsewhereWithinASecond() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.file("badge-keys"))
        let store = BadgeKeyStore(directory: url)
        _ = try store.current()
        let first = store.revision()
        #expect(store.revision() == first)
        _ = try store.rotate()
        let afterOwnRotation = store.revision()
        #expect(afterOwnRotation != first, "a key this store made shows at once")

        // Another process's store on the same directory, as `belay badges rotate-key` is.
        _ = try BadgeKeyStore(directory: url).rotate()
        let deadline = Date().addingTimeInterval(3)
        var seen = store.revision()
        while seen == afterOwnRotation && Date() < deadline {
            usleep(100_000)
            seen = store.revision()
        }
        #expect(seen != afterOwnRotation, "a key made elsewhere shows within a second")
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

    /// The ids (of 1…`upTo`) whose guessable identity, hashed with the badge's own printed salt,
    /// gives the badge's `identityHash`: what anyone holding a sticker can try.
    static func guessedMemberIDs(in token: String, upTo last: Int64 = 100_000) throws -> [Int64] {
        let parts = try #require(CompactJWT.parts(of: token))
        let identifier = try #require(parts.payload["credentialSubject"]?["identifier"]?.arrayValue?.first)
        let salt = try #require(identifier["salt"]?.stringValue)
        let hash = try #require(identifier["identityHash"]?.stringValue)
        return (1...last).filter { id in
            ["belay-member:\(id)", "\(id)"].contains { "sha256$" + ContentDigest.hex(of: $0 + salt) == hash }
        }
    }

    @Test func theMemberCannotBeFoundFromTheBadgeButTheClubCanConfirmThem() throws {
        let directory = try TemporaryDirectory()
        let badges = issuer(directory)
        let token = try badges.credential(facts())
        #expect(try Self.guessedMemberIDs(in: token).isEmpty, "trying ids with the printed salt must not find member 3")

        // The club, holding the secret, confirms whose badge it is; the hash differs per reward.
        let parts = try #require(CompactJWT.parts(of: token))
        let identifier = try #require(parts.payload["credentialSubject"]?["identifier"]?.arrayValue?.first)
        let salt = try #require(identifier["salt"]?.stringValue)
        let identity = try badges.memberIdentity(memberID: 3)
        #expect(identifier["identityHash"]?.stringValue == "sha256$" + ContentDigest.hex(of: identity + salt))
        #expect(identity != (try badges.memberIdentity(memberID: 4)))
        let other = try #require(CompactJWT.parts(of: try badges.credential(facts(rewardID: 8))))
        #expect(other.payload["credentialSubject"]?["identifier"]?.arrayValue?.first?["identityHash"] != identifier["identityHash"])

        // The secret is private, survives a key rotation, and a second club has its own.
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("badge-keys/member-secret"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try badges.keys.rotate()
        #expect(try badges.memberIdentity(memberID: 3) == identity)
        #expect(try issuer(try TemporaryDirectory()).memberIdentity(memberID: 3) != identity)
    }

    @Test func aDamagedMemberSecretIsReportedNotReplaced() throws {
        let directory = try TemporaryDirectory()
        let badges = issuer(directory)
        _ = try badges.memberIdentity(memberID: 3)
        try Data("not a secret\n".utf8).write(to: URL(fileURLWithPath: directory.file("badge-keys/member-secret")))
        #expect {
            try badges.credential(facts())
        } throws: { error in
            "\(error)".contains("restore it from a backup")
        }
    }

    /// Nodes on separate machines share one key directory by copies: a node given a copy
    /// never makes keys of its own, and verifies what the node holding another copy signed.
    @Test func aCopiedKeyDirectoryIsUsedAsItIsAndAnEmptyOneIsRefused() throws {
        let directory = try TemporaryDirectory()
        let origin = issuer(directory)
        try origin.keys.rotate()
        let copyA = directory.file("keys-a"), copyB = directory.file("keys-b")
        try FileManager.default.copyItem(atPath: directory.file("badge-keys"), toPath: copyA)
        try FileManager.default.copyItem(atPath: directory.file("badge-keys"), toPath: copyB)
        func node(_ path: String) -> BadgeIssuer {
            BadgeIssuer(settings: BadgeSettings(publicBaseURL: "https://belay.example/", clubName: "Belay Climbing Club",
                                                keysDirectory: URL(fileURLWithPath: path), makesKeys: false))
        }
        let token = try node(copyA).credential(facts())
        #expect(node(copyB).verify(token).isValid)
        #expect(try node(copyA).memberIdentity(memberID: 3) == node(copyB).memberIdentity(memberID: 3))

        let empty = node(directory.file("keys-empty"))
        let error = try #require(throws: PipelineError.self) { try empty.keys.current() }
        #expect("\(error)".contains("rewards.badge_keys_directory"), "\(error)")
        #expect(throws: PipelineError.self) { try empty.keys.memberSecret() }
        #expect(!FileManager.default.fileExists(atPath: directory.file("keys-empty")), "a node given a copy made keys of its own")
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
