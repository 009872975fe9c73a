import BelayCore
import BelayDomain
import BelayPush
import Foundation

/// A notice as stored in `push_notices` (its kind and payload) as the app gets it: its words
/// made from its facts by BelayPush, beside the ids and link the writer stored.
func shownNotice(kind: String, payload: Data) -> JSONValue {
    guard let kind = NoticeKinds.belay.named(kind) else { return .null }
    return .object(NoticeWording.belay.shown(kind, stored: Array(payload)))
}
