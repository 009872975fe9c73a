import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

/// `PUT /v1/me/share-preferences`.
struct SharePreferencesRequest: Decodable {
    var showNameOnSharePages: Bool

    enum CodingKeys: String, CodingKey {
        case showNameOnSharePages = "show_name_on_share_pages"
    }
}

extension APIRoutes {
    /// The member's choice of what their share pages show.
    func registerSharePreferenceRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.sharePreferences) { _, context in
            let caller = context.caller
            return preferences(showsName: try domain.sharePages.showsName(userID: caller.userID))
        }
        routes.on(Operations.setSharePreferences) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: SharePreferencesRequest.self)
            try domain.sharePages.setShowsName(body.showNameOnSharePages, userID: caller.userID)
            return preferences(showsName: body.showNameOnSharePages)
        }
    }

    private func preferences(showsName: Bool) -> Response {
        var json = JSONOutput()
        json.object { json in json.member("show_name_on_share_pages", showsName) }
        return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                        body: ResponseBody(bytes: json.bytes))
    }
}
