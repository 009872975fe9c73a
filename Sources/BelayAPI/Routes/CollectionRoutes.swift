import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// A member's whole hold collection as one tall PNG, rendered on demand and cached by
    /// content (the ETag is the content digest, so a repeat with `If-None-Match` is a 304).
    func registerCollectionRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.myCollection) { request, context in
            try collection(memberID: context.caller.userID, hostedBy: nil, request)
        }
        routes.on(Operations.memberCollection, allowing: [.host, .admin], to: "see other members' collections") { request, context in
            let caller = context.caller
            let id = try context.id()
            // A host sees members of the meetups they host, drawn from those meetups only.
            _ = try domain.users.user(id: id, visibleTo: caller.actor)
            let hostID = caller.role == .host && caller.userID != id ? caller.userID : nil
            return try collection(memberID: id, hostedBy: hostID, request)
        }
    }

    private func collection(memberID: Int64, hostedBy hostID: Int64?, _ request: Request) throws -> Response {
        let scale = try request.query("scale", as: Int.self) ?? 2
        guard (1...3).contains(scale) else {
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `scale` must be 1, 2 or 3; got `\(scale)`.",
                                       extensions: ["parameter": "scale", "expected": "1, 2 or 3"])
        }
        guard let source = services.collections else {
            throw HTTPError(.serviceUnavailable, code: "collection_unavailable",
                            detail: "This server cannot render collection images (its renderer did not start); try again later.",
                            headers: ["Retry-After": "60"])
        }
        // Rendered off the HTTP threads (a 3x collection takes a while); the connection waits
        // suspended, and identical requests share one render.
        let deferred = DeferredResponse()
        let ifNoneMatch = request.headers["If-None-Match"]
        source.collectionImage(memberID: memberID, scale: scale, hostedBy: hostID) { outcome in
            deferred.complete {
                let image = try outcome.get()
                let etag = "\"\(image.digest)\""
                // The URL stays the same while the collection grows, so clients revalidate every time.
                var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "private, no-cache"]
                if let ifNoneMatch, Self.matches(ifNoneMatch: ifNoneMatch, etag: etag) {
                    return Response(status: .notModified, headers: headers)
                }
                headers.add(name: "Content-Type", value: "image/png")
                return Response(status: .ok, headers: headers, body: ResponseBody(file: try FileRegion(path: image.file.path)))
            }
        }
        return .deferred(deferred)
    }
}
