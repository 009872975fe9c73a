import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// The hold catalogue and its artwork.
    func registerHoldRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.listHolds) { _, _ in
            let rewards = domain.settings.rewards
            let holds = try domain.catalog.holds()
            return .api(ListBody(items: holds.map { HoldBody(hold: $0, rewards: rewards, presentation: presentation) }, nextCursor: nil))
        }

        routes.on(Operations.holdArtwork) { request, context in
            try holdArtwork(id: try context.parameters.require("hold_id"), cacheControl: "private, max-age=86400", request)
        }
    }

    /// The catalogue's artwork without a token, for the badges that name it as their image.
    func registerPublicHoldArtworkRoute(on router: OperationRoutes<APIContext>) {
        router.on(Operations.publicHoldArtwork) { request, context in
            try holdArtwork(id: try context.parameters.require("hold_id"), cacheControl: "public, max-age=86400", request)
        }
    }

    private func holdArtwork(id: String, cacheControl: String, _ request: Request) throws -> Response {
            let hold: Hold
            do {
                hold = try domain.catalog.hold(id: id)
            } catch let error as DomainError where error.reason == .holdNotFound {
                throw HTTPError(.notFound, code: RefusalReason.holdNotFound.rawValue, detail: "No hold has id \(id); GET /v1/holds lists them.",
                                extensions: ["reason": .string(RefusalReason.holdNotFound.rawValue)])
            }
            guard let directory = services.assetsDirectory, !hold.artworkPath.split(separator: "/").contains("..") else {
                throw HTTPError(.notFound, code: RefusalReason.holdNotFound.rawValue, detail: "This server has no artwork for hold \(id).",
                                extensions: ["reason": .string(RefusalReason.holdNotFound.rawValue)])
            }
            let path = (directory as NSString).appendingPathComponent(hold.artworkPath)
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw HTTPError(.notFound, code: RefusalReason.holdNotFound.rawValue,
                                detail: "The artwork of hold \(id) is missing from the assets directory; run `belay holds import` after restoring it.",
                                extensions: ["reason": .string(RefusalReason.holdNotFound.rawValue)])
            }
            let etag = ContentETag.of( Array(bytes))
            var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
            if let match = request.headers["If-None-Match"], Self.matches(ifNoneMatch: match, etag: etag) {
                return Response(status: .notModified, headers: headers)
            }
            headers.add(name: "Content-Type", value: "image/png")
            return Response(status: .ok, headers: headers, body: ResponseBody(bytes: Array(bytes)))
    }
}
