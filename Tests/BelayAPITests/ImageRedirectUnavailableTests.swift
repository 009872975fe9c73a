import BelayTestSupport
import Foundation
import Testing

/// `belay serve` with `images.store = s3` and no key: the platform's temporary credentials
/// (web identity exchanged at the loopback STS) sign every presigned redirect. When the
/// platform stops giving them and the ones held have run out, no link to an image can be
/// signed: the image routes answer a clear 503 `image_store_unavailable` with `Retry-After`,
/// never a 500 and never the refusal's text, and answer redirects again once credentials come back.
@Suite(.serialized) struct ImageRedirectUnavailableTests {
    /// Credentials live this long, so that the held ones run out within the test.
    static let lifetime = 8
    private static let started = Result {
        try S3ServerProcess(bucket: "belay-presign", platformCredentials: true, credentialSeconds: lifetime)
    }

    @Test func anImageRedirectThatCannotBeSignedIsA503WithRetryAfterAndNoInternals() throws {
        let store = try Self.started.get()
        let workspace = try ClubWorkspace.served()
        let tokenFile = workspace.directory.file("web-identity-token")
        try store.webIdentityToken.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        workspace.environment = ["AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile, "AWS_ROLE_ARN": store.roleARN,
                                 "AWS_ROLE_SESSION_NAME": "belay-test", "AWS_ENDPOINT_URL_STS": store.endpoint]
        let prefix = "presign-\(UUID().uuidString.lowercased().prefix(8))/"
        try workspace.rewriteConfig(adding: ["images": ["store": "s3", "s3": [
            "endpoint": store.endpoint, "bucket": store.bucket, "region": store.region, "prefix": prefix, "path_style": 1,
        ] as [String: Any]]])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        let (ana, _, reward) = try workspace.renderedReward(on: server, place: "Seoul Forest")
        let rewardID = try #require(reward["id"]?.intValue)
        let stickerHash = try #require(reward["images"]?["sticker"]?["hash"]?.stringValue)
        let path = "/v1/rewards/\(rewardID)/sticker/\(stickerHash).png"
        let share = try server.call("POST", "/v1/rewards/\(rewardID)/share-page", token: ana.token)
        let shareURL = try #require(share["url"]?.stringValue, "\(share.response.text)")
        let slug = try #require(shareURL.split(separator: "/").last.map(String.init))

        // While the platform gives credentials, the redirect is signed with their session token.
        let signed = try server.call("GET", path, token: ana.token)
        #expect(signed.status == 302)
        #expect(signed.header("Location")?.contains("X-Amz-Security-Token=") == true, "\(signed.header("Location") ?? "no Location")")

        // The platform refuses from now on; once the credentials held run out, nothing can sign.
        try "a-token-the-platform-refuses".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let refused = try #require(try server.poll(timeout: Double(Self.lifetime) * 6) { () -> WireResponse? in
            let answer = try server.call("GET", path, token: ana.token)
            return answer.status == 302 ? nil : answer
        }, "image requests were still redirected long after the credentials expired")
        #expect(refused.status == 503, "\(refused.response.text)")
        #expect(refused.isProblem)
        #expect(refused["code"]?.stringValue == "image_store_unavailable", "\(refused.response.text)")
        let retryAfter = try #require(refused.header("Retry-After").flatMap(Int.init), "no Retry-After in seconds")
        #expect(retryAfter > 0)
        #expect(refused.header("Location") == nil)
        for secret in ["InvalidIdentityToken", "AssumeRoleWithWebIdentity", "X-Amz", "Swift", ".swift", tokenFile, store.endpoint] {
            #expect(!refused.response.text.contains(secret), "the 503 tells the client about \(secret): \(refused.response.text)")
        }

        // The shared sticker a link preview fetches answers the same.
        let publicSticker = try server.call("GET", "/s/\(slug)/sticker.png")
        #expect(publicSticker.status == 503, "\(publicSticker.response.text)")
        #expect(publicSticker["code"]?.stringValue == "image_store_unavailable", "\(publicSticker.response.text)")
        #expect(publicSticker.header("Retry-After").flatMap(Int.init) != nil)

        // A current ETag needs no link: 304 as always.
        let unchanged = try server.call("GET", path, token: ana.token, headers: [("If-None-Match", "\"\(stickerHash)\"")])
        #expect(unchanged.status == 304)

        // The platform gives credentials again: the next request is redirected.
        try store.webIdentityToken.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let again = try #require(try server.poll(timeout: 60) { () -> WireResponse? in
            let answer = try server.call("GET", path, token: ana.token)
            return answer.status == 302 ? answer : nil
        }, "image requests were not redirected again once the platform gave credentials")
        #expect(again.header("Location")?.contains("X-Amz-Security-Token=") == true)
    }
}
