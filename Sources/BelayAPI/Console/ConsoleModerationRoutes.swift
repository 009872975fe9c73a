import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// The moderators' pages.
    func registerConsoleModerationRoutes(on router: Router<APIContext>) {
    }
}
