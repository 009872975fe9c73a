import BelayCore
import BelayDomain
import BelayRender
import CDeflate
import Foundation

/// Where badges come from: the club as an Open Badges 3.0 issuer at `publicBaseURL`.
public struct BadgeSettings: Sendable {
    /// The address the club is reached at (`server.public_base_url`): every id in a badge starts with it.
    public var publicBaseURL: String
    public var clubName: String
    /// The signing keys' directory (`<data>/badge-keys`, or `rewards.badge_keys_directory`).
    public var keysDirectory: URL
    /// Whether a missing key is made (a node's own directory) or refused (a copy every node holds).
    public var makesKeys: Bool

    public init(publicBaseURL: String, clubName: String, keysDirectory: URL, makesKeys: Bool = true) {
        var base = publicBaseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.publicBaseURL = base
        self.clubName = clubName
        self.keysDirectory = keysDirectory
        self.makesKeys = makesKeys
    }
}

/// Issues each reward as an Open Badges 3.0 `OpenBadgeCredential` signed by the club (a
/// VC-JWT, §8.2), publishes revocations as a W3C Bitstring Status List, and checks badges.
///
/// The achievement is the hold (name, type, rarity, the milestone when there is one); the
/// subject is the member as a salted hash of an identity keyed with the club's secret
/// (`memberIdentity(memberID:)`), never their email or id;
/// `validFrom` is the check-in. The same reward and key always give the same token.
public final class BadgeIssuer: Sendable {
    public let settings: BadgeSettings
    public let keys: BadgeKeyStore

    public init(settings: BadgeSettings) {
        self.settings = settings
        keys = BadgeKeyStore(directory: settings.keysDirectory, makesKeys: settings.makesKeys)
    }

    public var issuerID: String { settings.publicBaseURL + "/issuer" }
    /// The revocation list of badges signed with `key`: each key signs its own copy of the
    /// list, so a badge's list verifies with the badge's own key, also after a rotation.
    public func statusListURL(for key: Ed25519Key) -> String { settings.publicBaseURL + "/badges/status/" + key.thumbprint }
    public func credentialID(rewardID: Int64) -> String { settings.publicBaseURL + "/badges/\(rewardID)" }
    public func keyID(_ key: Ed25519Key) -> String { issuerID + "/keys/" + key.thumbprint }

    /// What a badge states about one reward.
    public struct Facts: Sendable {
        public var rewardID: Int64
        public var memberID: Int64
        public var hold: Hold
        public var milestone: Int?
        public var placeName: String
        /// The meetup's date as the sticker shows it.
        public var dateText: String
        public var checkedInAt: Date

        public init(rewardID: Int64, memberID: Int64, hold: Hold, milestone: Int?, placeName: String, dateText: String, checkedInAt: Date) {
            self.rewardID = rewardID
            self.memberID = memberID
            self.hold = hold
            self.milestone = milestone
            self.placeName = placeName
            self.dateText = dateText
            self.checkedInAt = checkedInAt
        }
    }

    /// The signed credential of a reward, with the current key.
    /// - Throws: `PipelineError` when the key cannot be read or made, or signing fails.
    public func credential(_ facts: Facts) throws -> String {
        let key = try keys.current()
        let statusListURL = statusListURL(for: key)
        let id = credentialID(rewardID: facts.rewardID)
        let validFrom = Self.timestamp(facts.checkedInAt)
        // A salt only the club can reproduce, so renders repeat and one member's badges do not
        // share a hash. The salt is printed beside the hash: what keeps the member unknown is
        // that the identity itself is keyed with the club's secret.
        let salt = Crypto.hex(Array(Crypto.hmacSHA256(key: key.seed, message: Array("member-salt:\(facts.rewardID)".utf8)).prefix(16)))
        let identity = try memberIdentity(memberID: facts.memberID)
        var tags = ["rarity:\(facts.hold.rarity.rawValue)", "type:\(facts.hold.type)"]
        if let milestone = facts.milestone { tags.append("milestone:\(milestone)") }
        var achievement: JSONObject = [
            "id": .string(settings.publicBaseURL + "/holds/" + facts.hold.id),
            "type": ["Achievement"],
            "achievementType": "Badge",
            "name": .string(facts.hold.name),
            "image": ["id": .string(settings.publicBaseURL + "/holds/" + facts.hold.id + "/artwork.png"), "type": "Image"],
            "description": .string("A \(facts.hold.rarity.rawValue) \(facts.hold.type) hold of \(settings.clubName), earned by checking in at one of its meetups."),
            "criteria": ["narrative": .string("Checked in at \(facts.placeName) on \(facts.dateText).")],
            "tag": .array(tags.map(JSONValue.string)),
        ]
        if let milestone = facts.milestone { achievement["humanCode"] = .string("milestone-\(milestone)") }
        let payload: JSONObject = [
            "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
            "id": .string(id),
            "type": ["VerifiableCredential", "OpenBadgeCredential"],
            "name": .string("\(facts.hold.name) — \(facts.placeName)"),
            "issuer": ["id": .string(issuerID), "type": ["Profile"], "name": .string(settings.clubName), "url": .string(settings.publicBaseURL)],
            "validFrom": .string(validFrom),
            "credentialSubject": [
                "type": ["AchievementSubject"],
                "identifier": [[
                    "type": "IdentityObject", "identityType": "identifier", "hashed": true, "salt": .string(salt),
                    "identityHash": .string("sha256$" + ContentDigest.hex(of: identity + salt)),
                ]],
                "achievement": .object(achievement),
            ],
            "credentialStatus": [
                "id": .string(statusListURL + "#\(facts.rewardID)"), "type": "BitstringStatusListEntry", "statusPurpose": "revocation",
                "statusListIndex": .string(String(facts.rewardID)), "statusListCredential": .string(statusListURL),
            ],
            "iss": .string(issuerID), "jti": .string(id), "nbf": .int(Int64(facts.checkedInAt.timeIntervalSince1970.rounded(.down))),
        ]
        return try CompactJWT.sign(payload, key: key, keyID: keyID(key))
    }

    /// The identity a badge hashes for a member: `belay-member:` and an HMAC-SHA256 of their id
    /// under the club's member secret (`BadgeKeyStore.memberSecret()`). It is the same in all
    /// of the member's badges and says nothing about the id to anyone without the secret; the
    /// club (or the member, told it) checks a badge's `identityHash` as
    /// `sha256$hex(SHA-256(identity + salt))`.
    /// - Throws: `PipelineError` when the secret cannot be read or made.
    public func memberIdentity(memberID: Int64) throws -> String {
        let secret = try keys.memberSecret()
        return "belay-member:" + Crypto.hex(Crypto.hmacSHA256(key: secret, message: Array("member:\(memberID)".utf8)))
    }

    /// The revocation list for badges signed with `key` (the current one by default): a
    /// `BitstringStatusListCredential` signed with that key, whose bit N is set when reward N
    /// is revoked (at least 131,072 bits, gzip-compressed, multibase base64url).
    /// - Throws: `PipelineError` when the key cannot be read or compression fails.
    public func revocationList(revoked: [Int64], highestRewardID: Int64, now: Date, key chosen: Ed25519Key? = nil) throws -> String {
        let bits = max(131_072, Int((highestRewardID + 8) / 8) * 8)
        var bitstring = [UInt8](repeating: 0, count: bits / 8)
        for id in revoked where id >= 0 && Int(id) < bits {
            bitstring[Int(id) / 8] |= 0x80 >> UInt8(Int(id) % 8)
        }
        let key = try chosen ?? keys.current()
        let statusListURL = statusListURL(for: key)
        let validFrom = Self.timestamp(now)
        let payload: JSONObject = [
            "@context": ["https://www.w3.org/ns/credentials/v2"],
            "id": .string(statusListURL),
            "type": ["VerifiableCredential", "BitstringStatusListCredential"],
            "issuer": .string(issuerID),
            "validFrom": .string(validFrom),
            "credentialSubject": [
                "id": .string(statusListURL + "#list"), "type": "BitstringStatusList", "statusPurpose": "revocation",
                "encodedList": .string("u" + Crypto.base64URL(try Self.gzip(bitstring))),
            ],
            "iss": .string(issuerID), "jti": .string(statusListURL), "nbf": .int(Int64(now.timeIntervalSince1970.rounded(.down))),
        ]
        return try CompactJWT.sign(payload, key: key, keyID: keyID(key))
    }

    /// The issuer's profile (`/issuer`) and its published keys, as JSON objects.
    public func issuerProfile() throws -> JSONObject {
        let published = try keys.all().map { key -> JSONValue in
            var jwk = key.jwk
            jwk["kid"] = .string(keyID(key))
            return .object(jwk)
        }
        return [
            "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
            "id": .string(issuerID), "type": ["Profile"], "name": .string(settings.clubName), "url": .string(settings.publicBaseURL),
            "publicKeys": .array(published),
        ]
    }

    /// Checks a badge's token: a well-formed credential of this club, signed by one of its
    /// keys (current or rotated). Revocation is the caller's to check (`rewardID`).
    public func verify(_ token: String) -> BadgeVerification {
        guard let parts = CompactJWT.parts(of: token) else {
            return .invalid("the baked credential is not a compact JWT")
        }
        guard let kid = parts.header["kid"]?.stringValue, kid.hasPrefix(issuerID + "/keys/"),
              let key = keys.key(withThumbprint: String(kid.dropFirst((issuerID + "/keys/").count))) else {
            return .invalid("it is signed with a key \(settings.clubName) never published (kid \(parts.header["kid"]?.stringValue ?? "missing"))")
        }
        guard parts.isSigned(by: key.publicKey) else {
            return .invalid("the signature does not match the credential: it was changed after it was issued")
        }
        let payload = parts.payload
        guard payload["iss"]?.stringValue == issuerID, payload["issuer"]?["id"]?.stringValue == issuerID else {
            return .invalid("it names another issuer than \(issuerID)")
        }
        guard payload["type"]?.arrayValue?.contains("OpenBadgeCredential") == true,
              let index = payload["credentialStatus"]?["statusListIndex"]?.stringValue.flatMap({ Int64($0) }),
              let achievement = payload["credentialSubject"]?["achievement"],
              let holdName = achievement["name"]?.stringValue else {
            return .invalid("it is not an OpenBadgeCredential with an achievement and a status entry")
        }
        let criteria = achievement["criteria"]?["narrative"]?.stringValue ?? ""
        return BadgeVerification(isValid: true, reason: nil, rewardID: index, holdName: holdName, criteria: criteria,
                                 validFrom: payload["validFrom"]?.stringValue, issuerName: settings.clubName, keyThumbprint: key.thumbprint)
    }

    /// Checks the badge baked into a sticker PNG; nil when it carries none.
    public func verify(sticker png: [UInt8]) -> BadgeVerification? {
        PNGTextChunk.text(keyword: Renderer.badgeKeyword, in: png).map(verify)
    }

    static func timestamp(_ date: Date) -> String { RFC3339.string(from: date, fraction: .none) }

    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(9) else {
            throw PipelineError.invalidSetting("badge status list", "libdeflate could not allocate a compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let size = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { libdeflate_gzip_compress(compressor, input.baseAddress, input.count, $0.baseAddress, $0.count) }
        }
        guard size > 0 else { throw PipelineError.invalidSetting("badge status list", "libdeflate could not compress the list") }
        return Array(output.prefix(size))
    }
}

/// The verdict on a badge.
public struct BadgeVerification: Sendable {
    public var isValid: Bool
    /// Why it does not verify, in words.
    public var reason: String?
    /// The reward it was issued for (its status-list index).
    public var rewardID: Int64?
    public var holdName: String?
    /// "Checked in at … on …".
    public var criteria: String?
    public var validFrom: String?
    public var issuerName: String?
    public var keyThumbprint: String?

    /// A refusal, saying why.
    public static func invalid(_ reason: String) -> BadgeVerification {
        BadgeVerification(isValid: false, reason: reason, rewardID: nil, holdName: nil, criteria: nil, validFrom: nil,
                          issuerName: nil, keyThumbprint: nil)
    }

    /// The same verdict, refused because the reward was revoked.
    public func revoked() -> BadgeVerification {
        var verdict = self
        verdict.isValid = false
        verdict.reason = "it was revoked: the check-in it was issued for was undone"
        return verdict
    }
}
