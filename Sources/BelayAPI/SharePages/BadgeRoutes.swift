import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline
import Foundation

extension APIRoutes {
    /// What anyone needs to check a badge, without a token: the issuer's profile with its
    /// public keys (current and rotated), each key by its id, and the revocation list.
    func registerBadgeRoutes(on router: RouteGroup<APIContext>) {
        router.get("/issuer") { _, _ in
            let badges = try requireBadges()
            return jsonObject(try badges.issuerProfile(), maxAge: 300)
        }
        router.get("/issuer/keys/{thumbprint}") { _, context in
            let badges = try requireBadges()
            let thumbprint = try context.parameters.require("thumbprint")
            guard let key = badges.keys.key(withThumbprint: thumbprint) else {
                throw HTTPError(.notFound, code: "badge_key_not_found", detail: "The club has no badge key \(thumbprint.prefix(60)).")
            }
            var jwk = key.jwk
            jwk["kid"] = .string(badges.keyID(key))
            return jsonObject(jwk, maxAge: 86_400)
        }
        router.get("/badges/status/{thumbprint}") { _, context in
            let badges = try requireBadges()
            let thumbprint = try context.parameters.require("thumbprint")
            guard let key = badges.keys.key(withThumbprint: thumbprint) else {
                throw HTTPError(.notFound, code: "badge_key_not_found", detail: "The club has no badge key \(thumbprint.prefix(60)).")
            }
            let revocations = try domain.rewards.revocations()
            let list = try badges.revocationList(revoked: revocations.revoked, highestRewardID: revocations.highestID,
                                                 now: domain.clock.now(), key: key)
            return Response(status: .ok, headers: ["Content-Type": "application/vc+jwt", "Cache-Control": "public, max-age=60"],
                            body: ResponseBody(string: list))
        }
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

    /// The verdict on the badge baked into a shared reward's sticker, as the share page shows it.
    func badgeVerdict(of reward: Reward) -> BadgeVerification? {
        guard let badges = services.badges, let images = reward.images, let file = services.imageFile(images.stickerPath),
              let bytes = FileManager.default.contents(atPath: file.path),
              let verdict = badges.verify(sticker: Array(bytes)) else { return nil }
        guard verdict.isValid else { return verdict }
        if verdict.rewardID != reward.id { return .invalid("it was issued for another reward") }
        return reward.isRevoked ? verdict.revoked() : verdict
    }
}
