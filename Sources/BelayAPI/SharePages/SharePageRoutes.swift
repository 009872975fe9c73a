import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// The public side of sharing, answered without a token: the page of a shared reward
    /// (`/s/{slug}`), its sticker and link-preview card, the pages' stylesheet, and the
    /// app-link files that let `/s/…` open the club's app where it is installed. The shared
    /// pages take any query string: messengers and link unfurlers append their own
    /// (`fbclid`, `utm_source`), and a shared link must still open.
    func registerSharePageRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.sharePage) { request, context in
            try sharePage(slug: try context.parameters.require("slug"), request)
        }
        router.on(Operations.sharePageSticker) { request, context in
            try sharePageImage(slug: try context.parameters.require("slug"), card: false, request)
        }
        router.on(Operations.sharePageCard) { request, context in
            try sharePageImage(slug: try context.parameters.require("slug"), card: true, request)
        }
        router.on(Operations.sharePageStylesheet) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600",
                                            "X-Content-Type-Options": "nosniff"],
                     body: ResponseBody(string: SharePageDocument.stylesheet))
        }
        router.on(Operations.appleAppSiteAssociation) { _, _ in
            try appLinkFile(AppLinkFiles.appleAppSiteAssociation(settings: services.sharePageSettings), name: "apple-app-site-association",
                            settings: "app_links.ios_app_ids")
        }
        router.on(Operations.assetLinks) { _, _ in
            try appLinkFile(AppLinkFiles.assetLinks(settings: services.sharePageSettings), name: "assetlinks.json",
                            settings: "app_links.android_package and app_links.android_sha256_fingerprints")
        }
    }

    /// How long a page, its sticker and its card may be cached anywhere: short, so that a
    /// revoked reward disappears within a minute.
    static let sharePageMaxAge = 30

    private func sharePage(slug: String, _ request: Request) throws -> Response {
        let page: SharePage
        if let cached = sharePageCache.value(for: slug) {
            return Self.pageResponse(cached, request)
        }
        let settings = services.sharePageSettings
        let language = settings.language
        guard let found = try domain.sharePages.page(slug: slug) else {
            if try domain.sharePages.isWithheld(slug: slug) {
                let gone = CachedPage(status: .gone, html: SharePageDocument.message(
                    title: language.goneTitle, detail: language.withheldDetail, settings: settings))
                sharePageCache.store(gone, for: slug)
                return Self.pageResponse(gone, request)
            }
            if try domain.sharePages.wasUnpublished(slug: slug) {
                let gone = CachedPage(status: .gone, html: SharePageDocument.message(
                    title: language.goneTitle, detail: language.unpublishedDetail, settings: settings))
                sharePageCache.store(gone, for: slug)
                return Self.pageResponse(gone, request)
            }
            return Self.pageResponse(CachedPage(status: .notFound, html: SharePageDocument.message(
                title: language.notFoundTitle, detail: language.notFoundDetail, settings: settings)), request)
        }
        page = found
        let rendered: CachedPage
        if page.isRevoked {
            rendered = CachedPage(status: .gone, html: SharePageDocument.message(
                title: language.goneTitle, detail: language.goneDetail, settings: settings))
        } else {
            let base = presentation.absoluteURL("/s/\(slug)")
            rendered = CachedPage(status: .ok, html: SharePageDocument.page(
                page, settings: settings, pageURL: base, stickerURL: base + "/sticker.png", cardURL: base + "/card.png",
                badge: badgeVerdict(of: page.reward)))
        }
        sharePageCache.store(rendered, for: slug)
        return Self.pageResponse(rendered, request)
    }

    /// A public page's answer: 304 when the client holds it (`If-None-Match`), else the HTML.
    static func pageResponse(_ page: CachedPage, _ request: Request) -> Response {
        var headers = Self.publicPageHeaders
        headers.add(name: "ETag", value: page.etag)
        if page.status == .ok, let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: page.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        return Response(status: page.status, headers: headers, body: ResponseBody(bytes: page.bytes))
    }

    /// Headers of every public page: cacheable briefly, no script, no framing, no sniffing.
    static let publicPageHeaders: HTTPHeaders = [
        "Cache-Control": "public, max-age=\(sharePageMaxAge)",
        "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
    ]

    /// The sticker or the card of a shared reward, public like its page.
    private func sharePageImage(slug: String, card: Bool, _ request: Request) throws -> Response {
        guard let page = try domain.sharePages.page(slug: slug) else {
            if try domain.sharePages.isWithheld(slug: slug) {
                throw HTTPError(.gone, code: "share_page_withheld", detail: "The club's moderators took this page down; it is no longer shared.")
            }
            if try domain.sharePages.wasUnpublished(slug: slug) {
                throw HTTPError(.gone, code: "share_page_unpublished", detail: "The member who shared this reward took its page down; it is no longer shared.")
            }
            throw HTTPError(.notFound, code: "share_page_not_found", detail: "No shared reward has this link; check that it is complete.")
        }
        guard !page.isRevoked else {
            throw HTTPError(.gone, code: "reward_revoked", detail: "This reward was revoked when its check-in was undone; it is no longer shared.")
        }
        if card {
            guard let cards = services.shareCards else {
                throw HTTPError(.serviceUnavailable, code: "card_unavailable",
                                detail: "This server cannot render share cards (its renderer did not start); try again later.",
                                headers: ["Retry-After": "60"])
            }
            // Found or drawn off the HTTP threads (the first request draws it); the connection waits suspended.
            let deferred = DeferredResponse()
            cards.shareCard(for: page.reward) { outcome in
                deferred.complete {
                    let image = try outcome.get()
                    return try publicImage(file: image.file, etag: "\"\(image.digest)\"", rewardID: page.reward.id, request)
                }
            }
            return .deferred(deferred)
        }
        if let remote = services.remoteImages, let images = page.reward.images {
            return try publicRemoteImage(remote, path: images.stickerPath, etag: "\"\(images.stickerHash)\"", request)
        }
        guard let images = page.reward.images, let url = services.imageFile(images.stickerPath) else {
            throw HTTPError(.serviceUnavailable, code: "render_pending",
                            detail: "The sticker is still being rendered; try again in \(renderRetryAfterSeconds) seconds.",
                            headers: ["Retry-After": String(renderRetryAfterSeconds)])
        }
        return try publicImage(file: url, etag: "\"\(images.stickerHash)\"", rewardID: page.reward.id, request)
    }

    /// A shared reward's sticker kept in a bucket: a redirect to it (or its bytes), or 304 for a
    /// current ETag.
    private func publicRemoteImage(_ remote: RemoteImageServing, path: String, etag: String, _ request: Request) throws -> Response {
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "public, max-age=\(min(Self.sharePageMaxAge, remote.redirectMaxAge))",
                                    "X-Content-Type-Options": "nosniff"]
        if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        let unavailable = HTTPError(.serviceUnavailable, code: "render_pending",
                                    detail: "The sticker cannot be read just now; try again in \(renderRetryAfterSeconds) seconds.",
                                    headers: ["Retry-After": String(renderRetryAfterSeconds)])
        do {
            switch remote.mode {
            case .redirect:
                guard let address = try remote.address(path) else { throw unavailable }
                headers.add(name: "Location", value: address)
                return Response(status: .found, headers: headers)
            case .proxy:
                let bytes = try remote.bytes(path)
                headers.add(name: "Content-Type", value: "image/png")
                return Response(status: .ok, headers: headers, body: ResponseBody(bytes: bytes))
            }
        } catch let error as ImageStoreError where error.isTransient {
            // The bucket does not answer, or no link to it can be signed now (the platform's
            // credentials ran out): the client's retry will do, the sticker itself is fine.
            throw HTTPError(.serviceUnavailable, code: "image_store_unavailable",
                            detail: "The image store does not answer; try again in \(renderRetryAfterSeconds) seconds.",
                            headers: ["Retry-After": String(renderRetryAfterSeconds)])
        } catch {
            throw unavailable
        }
    }

    /// A shared reward's image file, public and briefly cacheable, or 304 for a current ETag.
    private func publicImage(file: URL, etag: String, rewardID: Int64, _ request: Request) throws -> Response {
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "public, max-age=\(Self.sharePageMaxAge)",
                                    "X-Content-Type-Options": "nosniff"]
        if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "image/png")
        return Response(status: .ok, headers: headers, body: ResponseBody(file: try storedImage(file, of: "shared reward \(rewardID)'s image")))
    }

    private func appLinkFile(_ bytes: [UInt8]?, name: String, settings: String) throws -> Response {
        guard let bytes else {
            throw HTTPError(.notFound, code: "app_links_not_configured",
                            detail: "This server has no \(name): an admin sets \(settings) in config.json.")
        }
        return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"],
                        body: ResponseBody(bytes: bytes))
    }
}

/// A share page as sent: its status, bytes and entity tag, kept briefly per slug.
struct CachedPage: Sendable {
    let status: HTTPStatus
    let bytes: [UInt8]
    let etag: String

    init(status: HTTPStatus, html: String) {
        self.status = status
        bytes = Array(html.utf8)
        etag = ContentETag.of(bytes)
    }
}
