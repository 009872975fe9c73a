import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline
import Foundation

extension APIRoutes {
    /// What anyone needs to check a badge, without a token: the issuer's profile with its
    /// public keys (current and rotated), each key by its id, and the revocation list.
    func registerBadgeRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.badgeIssuer) { _, _ in
            let badges = try requireBadges()
            let keysRevision = badges.keys.revision()
            if let bytes = badgeAnswers.answer("issuer", inputs: keysRevision) { return jsonBytes(bytes, maxAge: 300) }
            let bytes = JSONOutput.bytes(of: .object(try badges.issuerProfile()))
            services.metrics.answerBuilt(.issuerProfile)
            badgeAnswers.store(bytes, as: "issuer", inputs: keysRevision)
            return jsonBytes(bytes, maxAge: 300)
        }
        router.on(Operations.badgeKey) { _, context in
            let badges = try requireBadges()
            let thumbprint = try context.parameters.require("thumbprint")
            guard let key = badges.keys.key(withThumbprint: thumbprint) else {
                throw HTTPError(.notFound, code: "badge_key_not_found", detail: "The club has no badge key \(thumbprint.prefix(60)).")
            }
            var jwk = key.jwk
            jwk["kid"] = .string(badges.keyID(key))
            return jsonObject(jwk, maxAge: 86_400)
        }
        router.on(Operations.badgeRevocations) { _, context in
            let badges = try requireBadges()
            let thumbprint = try context.parameters.require("thumbprint")
            return try badgeStatusList(badges, thumbprint: thumbprint)
        }
    }

    /// A key's signed status list, built only when the key files or the revocations changed.
    /// The revocations' digest is kept in the response cache, so while nothing is written it
    /// costs no database read either; a revocation through the API shows at once, one made
    /// elsewhere (`belay attendees undo-check-in`) within the response cache's lifetime.
    private func badgeStatusList(_ badges: BadgeIssuer, thumbprint: String) throws -> Response {
        let keysRevision = badges.keys.revision()
        var revocations: (revoked: [Int64], highestID: Int64)?
        let revocationsDigest: String
        if let known = responseCache.body(for: .revocations) {
            revocationsDigest = String(decoding: known, as: UTF8.self)
        } else {
            let generation = responseCache.currentGeneration
            let read = try domain.rewards.revocations()
            revocations = read
            revocationsDigest = BadgeAnswerCache.inputs(revoked: read.revoked, highestID: read.highestID)
            responseCache.store(Array(revocationsDigest.utf8), for: .revocations, readGeneration: generation)
        }
        let name = "status:" + thumbprint
        if let bytes = badgeAnswers.answer(name, inputs: keysRevision + "|" + revocationsDigest) {
            return statusListResponse(bytes)
        }
        guard let key = badges.keys.key(withThumbprint: thumbprint) else {
            throw HTTPError(.notFound, code: "badge_key_not_found", detail: "The club has no badge key \(thumbprint.prefix(60)).")
        }
        let current = try revocations ?? domain.rewards.revocations()
        let list = try badges.revocationList(revoked: current.revoked, highestRewardID: current.highestID,
                                             now: domain.clock.now(), key: key)
        let bytes = Array(list.utf8)
        services.metrics.answerBuilt(.badgeStatusList)
        badgeAnswers.store(bytes, as: name,
                           inputs: keysRevision + "|" + BadgeAnswerCache.inputs(revoked: current.revoked, highestID: current.highestID))
        return statusListResponse(bytes)
    }

    private func statusListResponse(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: ["Content-Type": "application/vc+jwt", "Cache-Control": "public, max-age=60"],
                 body: ResponseBody(bytes: bytes))
    }

    private func requireBadges() throws -> BadgeIssuer {
        guard let badges = services.badges else {
            throw HTTPError(.notFound, code: "badges_not_issued", detail: "This server issues no badges.")
        }
        return badges
    }

    private func jsonObject(_ object: JSONObject, maxAge: Int) -> Response {
        .json(.object(object), headers: ["Cache-Control": "public, max-age=\(maxAge)"])
    }

    private func jsonBytes(_ bytes: [UInt8], maxAge: Int) -> Response {
        .json(bytes: bytes, headers: ["Cache-Control": "public, max-age=\(maxAge)"])
    }

    /// The bytes of the sticker a reward row names, from the bucket or the directory; nil when
    /// they cannot be read.
    private func stickerBytes(_ path: String) -> [UInt8]? {
        if let remote = services.remoteImages { return try? remote.bytes(path) }
        guard let file = services.imageFile(path), let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return Array(data)
    }

    /// The verdict on the badge baked into a shared reward's sticker, as the share page shows it.
    func badgeVerdict(of reward: Reward) -> BadgeVerification? {
        guard let badges = services.badges, let images = reward.images, let bytes = stickerBytes(images.stickerPath),
              let verdict = badges.verify(sticker: bytes) else { return nil }
        guard verdict.isValid else { return verdict }
        if verdict.rewardID != reward.id { return .invalid("it was issued for another reward") }
        return reward.isRevoked ? verdict.revoked() : verdict
    }
}
