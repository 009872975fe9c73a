import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRender
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// The member's grade pyramid as a picture to share.
    func registerPyramidRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.myGradePyramid) { request, context in
            let caller = context.caller
            let pictures = try logbookPictures()
            let (from, to) = try summaryPeriod(request)
            let summary = try domain.logbook.summary(memberID: caller.userID, viewerID: caller.userID, from: from, to: to)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            let wanted = try request.query("axis", oneOf: GradeAxis.self)
            let axis = summary.axes.first { $0.axis == wanted } ?? (wanted == nil ? summary.axes.max { total($0) < total($1) } : nil)
            let content = LogbookPictureService.pyramidContent(axis, summary: summary, name: caller.displayName, preferences: preferences,
                                                               locale: services.sharePageSettings.clubLocale, axisName: wanted ?? axis?.axis ?? .boulder)
            return Self.deferredPicture(request) { pictures.pyramid(content, then: $0) }
        }
    }

    /// A season of the member's climbing as a story to share.
    func registerRecapRoute(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.mySeasonRecap) { request, context in
            let caller = context.caller
            let pictures = try logbookPictures()
            let (from, to) = try summaryPeriod(request)
            let summary = try domain.logbook.summary(memberID: caller.userID, viewerID: caller.userID, from: from, to: to)
            let preferences = try domain.logbook.preferences(memberID: caller.userID)
            let locale = services.sharePageSettings.clubLocale
            let language = String(locale.prefix(2))
            var gymNames: [Int64: String] = [:]
            for id in Set(summary.sessions.compactMap(\.gymID)) { gymNames[id] = try domain.gyms.gym(id: id).name(in: language) }
            let content = LogbookPictureService.recapContent(summary: summary, name: caller.displayName, preferences: preferences, locale: locale) {
                $0.gymID.flatMap { gymNames[$0] } ?? $0.crag ?? "–"
            }
            return Self.deferredPicture(request) { pictures.recap(content, then: $0) }
        }
    }

    /// The service that draws logbook pictures.
    /// - Throws: `HTTPError` 503 `picture_unavailable` when this server draws none.
    private func logbookPictures() throws -> LogbookPictureService {
        guard let pictures = services.logbookPictures else {
            throw HTTPError(.serviceUnavailable, code: "picture_unavailable",
                            detail: "This server cannot draw logbook pictures (its renderer did not start); try again later.",
                            headers: ["Retry-After": "60"])
        }
        return pictures
    }

    /// Answers with the PNG `draw` makes off the request thread, its ETag its content's digest.
    static func deferredPicture(_ request: Request, cacheControl: String = "private, no-cache",
                                draw: (@escaping LogbookPictureService.Completion) -> Void) -> Response {
        let deferred = DeferredResponse()
        let ifNoneMatch = request.headers["If-None-Match"]
        draw { outcome in
            deferred.complete {
                let image = try outcome.get()
                let etag = ContentETag.of(image.bytes)
                var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
                if let ifNoneMatch, Self.matches(ifNoneMatch: ifNoneMatch, etag: etag) {
                    return Response(status: .notModified, headers: headers)
                }
                headers.add(name: "Content-Type", value: "image/png")
                return Response(status: .ok, headers: headers, body: ResponseBody(bytes: image.bytes))
            }
        }
        return .deferred(deferred)
    }

    private func total(_ axis: LogbookSummary.Axis) -> Int { axis.pyramid.reduce(0) { $0 + $1.sends + $1.flashes } }
}
