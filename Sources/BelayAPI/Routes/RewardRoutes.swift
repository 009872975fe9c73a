import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// The caller's rewards, one reward, and its images at content-addressed URLs.
    func registerRewardRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.myRewards) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 20, maximum: 200)
            let includeRevoked = try request.query("include_revoked", as: Bool.self) ?? false
            let rewards = try domain.rewards.rewards(memberID: caller.userID, includeRevoked: includeRevoked,
                                                     limit: page.limit, cursor: page.cursor)
            return .api(ListBody(items: rewards.items.map { RewardBody(reward: $0, presentation: presentation) },
                                 nextCursor: rewards.nextCursor))
        }

        routes.on(Operations.getReward) { _, context in
            let reward = try readableReward(context)
            return .api(RewardBody(reward: reward, presentation: presentation))
        }

        routes.on(Operations.stickerImage) { request, context in
            try image(.sticker, fileExtension: "png", request, context)
        }
        for (fileExtension, operation) in [("png", Operations.storyImagePNG), ("jpg", Operations.storyImageJPEG)] {
            routes.on(operation) { request, context in
                try image(.story, fileExtension: fileExtension, request, context)
            }
        }
        routes.on(Operations.storiesBackgroundPNG) { request, context in
            try storiesBackground(request, context)
        }
    }

    /// Serves the Stories background layer of a reward (its colours' gradient without the
    /// sticker), rendered on first request and stored by content.
    /// - Throws: 404 `image_not_found` when the hash is not the reward's current background,
    ///   or when the server sends only colours (`share.stories_background: colors`).
    private func storiesBackground(_ request: Request, _ context: AuthenticatedContext) throws -> Response {
        let hash = try context.parameters.require("hash")
        let reward = try readableReward(context)
        guard let backgrounds = presentation.storyBackgrounds else {
            throw HTTPError(.notFound, code: "image_not_found",
                            detail: "This server sends Stories only the background colours (share.stories_background is \"colors\").")
        }
        let top = reward.background.topColor, bottom = reward.background.bottomColor
        guard let digest = backgrounds.digest(topColor: top, bottomColor: bottom), digest == hash else {
            throw HTTPError(.notFound, code: "image_not_found",
                            detail: "Reward \(reward.id) has no Stories background with this hash; take its URL from the share payload.")
        }
        let etag = "\"\(digest)\""
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "public, max-age=31536000, immutable"]
        if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        let image = try backgrounds.image(topColor: top, bottomColor: bottom)
        headers.add(name: "Content-Type", value: "image/png")
        return Response(status: .ok, headers: headers, body: ResponseBody(file: try FileRegion(path: image.file.path)))
    }

    /// The reward named by the `id` path parameter, when the caller may see it: its member,
    /// the host of its meetup, or an admin.
    /// - Throws: 404 `reward_not_found`, alike for a reward that does not exist and one the
    ///   caller may not see.
    func readableReward(_ context: AuthenticatedContext) throws -> Reward {
        let caller = context.caller
        return try domain.rewards.reward(id: try context.id(), visibleTo: caller.actor)
    }

    /// As `readableReward`, read once a moment (the response cache's rule) once the image of
    /// `kind` the caller asks for by `hash` is rendered: an app asks for a sticker each time it
    /// shows one. A reward whose asked-for image is not stored yet (still rendering, or only its
    /// sticker stored and its story to follow) or has another hash is read every time, so that a
    /// 202 turns into the image as soon as the render is done.
    func readableRenderedReward(_ context: AuthenticatedContext, kind: RewardImageKind, hash: String) throws -> Reward {
        let caller = context.caller
        let key = ResponseCache.Key.renderedReward(reward: try context.id(), reader: caller.userID)
        func hasAskedImage(_ reward: Reward) -> Bool {
            guard let images = reward.images, let stored = kind.file(of: images) else { return false }
            return stored.hash == hash
        }
        if let known = responseCache.value(for: key, as: Reward.self), hasAskedImage(known) { return known }
        let generation = responseCache.currentGeneration
        let reward = try readableReward(context)
        if hasAskedImage(reward) { responseCache.store(reward, cost: 1_024, for: key, readGeneration: generation) }
        return reward
    }

    /// Serves one image of a reward from the image store.
    ///
    /// The hash in the path must be the reward's current one: the file read is always the one
    /// the reward's row names, never a path made from the request. While the first render is
    /// pending the answer is 202 with `Retry-After`; so it is when the file has gone from the
    /// store, while a render job makes it again.
    private func image(_ kind: RewardImageKind, fileExtension: String, _ request: Request, _ context: AuthenticatedContext) throws -> Response {
        let hash = try Self.imageHash(context.parameters)
        return try rewardImage(kind, fileExtension: fileExtension, hash: hash, of: try readableRenderedReward(context, kind: kind, hash: hash), request)
    }

    /// The `hash` path parameter: 64 lowercase hex digits, else 400.
    static func imageHash(_ parameters: Parameters) throws -> String {
        let hash = try parameters.require("hash")
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw HTTPError(.badRequest, code: "invalid_path_parameter",
                            detail: "Path parameter `hash` must be the 64 lowercase hex digits of an image's content hash, as in the reward's image URL.",
                            extensions: ["parameter": "hash", "expected": "64 lowercase hex digits"])
        }
        return hash
    }

    /// Serves `reward`'s image of `kind` whose content hash is `hash`, for a caller already
    /// allowed to see the reward (the API's image routes, the console's thumbnails).
    func rewardImage(_ kind: RewardImageKind, fileExtension: String, hash: String, of reward: Reward, _ request: Request) throws -> Response {
        guard let images = reward.images else {
            if reward.renderStatus == .failed {
                throw HTTPError(.conflict, code: "render_failed",
                                detail: "Reward \(reward.id)'s images could not be rendered; the server retries failed renders in its next backfill.",
                                extensions: ["reason": "render_failed"])
            }
            return Self.renderPending(rewardID: reward.id, status: reward.renderStatus)
        }
        guard let stored = kind.file(of: images), let path = kind.storedPath(of: images) else {
            // The sticker is stored first; the story follows within moments.
            return Self.renderPending(rewardID: reward.id, status: reward.renderStatus)
        }
        guard stored.hash == hash, stored.fileExtension == fileExtension else {
            let current = kind.path(rewardID: reward.id, hash: stored.hash, fileExtension: stored.fileExtension)
            throw HTTPError(.notFound, code: "image_not_found",
                            detail: "Reward \(reward.id) has no \(kind.rawValue) with this hash; its current \(kind.rawValue) is at \(current).",
                            extensions: ["current_url": .string(presentation.absoluteURL(current))])
        }
        let etag = "\"\(hash)\""
        var headers: HTTPHeaders = [
            "ETag": etag,
            // Private: the image is behind a token, and a shared cache must not serve it to
            // others (RFC 9111 §3.5). Immutable: its URL names its content.
            "Cache-Control": "private, max-age=31536000, immutable",
        ]
        if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        if let remote = services.remoteImages {
            return try remoteImage(remote, path: path, headers: headers, reward: reward, kind: kind, fileExtension: fileExtension)
        }
        guard let file = services.imageFile(path) else {
            throw ImageStoreProblem(detail: "reward \(reward.id) names \(kind.rawValue) path \(path), outside the image store")
        }
        let region: FileRegion
        do {
            region = try FileRegion(path: file.path)
        } catch let error as HTTPError where error.status == .notFound {
            // The store lost the file (deleted, or not yet on this node's mount): renders are
            // deterministic, so a render job makes the same file again from the reward's row.
            try domain.renderJobs.enqueue(rewardID: reward.id, reason: .rerender)
            return Self.renderPending(rewardID: reward.id, status: .pending)
        }
        headers.add(name: "Content-Type", value: RewardImageKind.contentType(forExtension: fileExtension))
        return Response(status: .ok, headers: headers, body: ResponseBody(file: region))
    }

    /// An image kept in a bucket: a redirect to its address, or its bytes read from the bucket.
    /// One the bucket lost is rendered again (202, as for a file gone from the directory); a
    /// bucket that does not answer is a 503 with `Retry-After`, never a 500.
    private func remoteImage(_ remote: RemoteImageServing, path: String, headers: HTTPHeaders, reward: Reward, kind: RewardImageKind,
                             fileExtension: String) throws -> Response {
        var headers = headers
        switch remote.mode {
        case .redirect:
            let found: String?
            do {
                found = try remote.address(path)
            } catch let error as ImageStoreError where error.isTransient {
                throw HTTPError(.serviceUnavailable, code: "image_store_unavailable",
                                detail: "The image store does not answer; try again in \(renderRetryAfterSeconds) seconds.",
                                headers: ["Retry-After": String(renderRetryAfterSeconds)])
            }
            guard let address = found else {
                throw ImageStoreProblem(detail: "reward \(reward.id) names \(kind.rawValue) path \(path), outside the image store")
            }
            headers.replaceOrAdd(name: "Cache-Control", value: "private, max-age=\(remote.redirectMaxAge)")
            headers.add(name: "Location", value: address)
            return Response(status: .found, headers: headers)
        case .proxy:
            let bytes: [UInt8]
            do {
                bytes = try remote.bytes(path)
            } catch let error as ImageStoreError where error.isMissing {
                try domain.renderJobs.enqueue(rewardID: reward.id, reason: .rerender)
                return Self.renderPending(rewardID: reward.id, status: .pending)
            } catch let error as ImageStoreError where error.isTransient {
                throw HTTPError(.serviceUnavailable, code: "image_store_unavailable",
                                detail: "The image store does not answer; try again in \(renderRetryAfterSeconds) seconds.",
                                headers: ["Retry-After": String(renderRetryAfterSeconds)])
            }
            headers.add(name: "Content-Type", value: RewardImageKind.contentType(forExtension: fileExtension))
            return Response(status: .ok, headers: headers, body: ResponseBody(bytes: bytes))
        }
    }

    /// 202 with `Retry-After`: the image is being rendered.
    static func renderPending(rewardID: Int64, status: RenderStatus) -> Response {
        var json = JSONOutput()
        json.object { json in
            json.member("reward_id", rewardID)
            json.member("render_status", status.rawValue)
            json.member("retry_after_seconds", renderRetryAfterSeconds)
        }
        return Response(status: .accepted,
                        headers: ["Content-Type": "application/json", "Retry-After": String(renderRetryAfterSeconds),
                                  "Cache-Control": "no-store"],
                        body: ResponseBody(bytes: json.bytes))
    }

    /// The region of a stored image file a reward row names.
    /// - Throws: `ImageStoreProblem` (a logged 500) when the store lost the file.
    func storedImage(_ file: URL, of what: String) throws -> FileRegion {
        do {
            return try FileRegion(path: file.path)
        } catch let error as HTTPError where error.status == .notFound {
            throw ImageStoreProblem(detail: "\(what) file \(file.path) is missing; run `belay backfill` to render it again")
        }
    }

    /// RFC 9110 §13.1.2: `*`, or a list of entity tags compared weakly.
    static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        // On the bytes: calendar apps revalidate often, and Foundation's trimming cost more
        // than the rest of a 304.
        let wanted = Array(etag.utf8)
        for candidate in header.utf8.split(separator: UInt8(ascii: ",")) {
            var tag = candidate.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            while let last = tag.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { tag = tag.dropLast() }
            if tag.elementsEqual([UInt8(ascii: "*")]) { return true }
            if tag.starts(with: [UInt8(ascii: "W"), UInt8(ascii: "/")]) { tag = tag.dropFirst(2) }
            if tag.elementsEqual(wanted) { return true }
        }
        return false
    }
}

/// An image a reward row names cannot be served (the store lost it): logged with the request
/// id and answered 500 without the details.
struct ImageStoreProblem: Error, CustomStringConvertible {
    let detail: String
    var description: String { "image store: \(detail)" }
}
