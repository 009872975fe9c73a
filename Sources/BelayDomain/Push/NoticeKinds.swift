/// The kinds of notice one Belay sends, in the order the API lists them: Belay's own
/// (`belay`), and any a deployment or a test adds (`adding`). The outbox, members' choices and
/// the API read kinds' names through it, so a kind it does not hold is one this build does not
/// send.
public struct NoticeKinds: Sendable {
    /// Every kind, in the API's order.
    public let all: [NoticeKind]
    private let byName: [String: NoticeKind]

    /// - Precondition: no two kinds share a name (a programmer's error).
    public init(_ kinds: [NoticeKind]) {
        all = kinds
        byName = Dictionary(kinds.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in
            preconditionFailure("two notice kinds are named \(first.rawValue)")
        })
    }

    /// Belay's own kinds.
    public static let belay = NoticeKinds([
        .waitlistPromoted, .waitlistOffer, .waitlistOfferExpiring, .waitlistOfferExpired, .meetupReminder, .checkInOpen,
        .meetupChanged, .meetupCancelled, .rewardReady, .newMeetup, .personalBest, .projectEnding, .reportOutcome,
        .moderation, .test,
    ])

    /// These kinds and `kind` after them.
    public func adding(_ kind: NoticeKind) -> NoticeKinds { NoticeKinds(all + [kind]) }

    /// The kind named `name`; nil when this build does not send one.
    public func named(_ name: String) -> NoticeKind? { byName[name] }

    /// The kinds a member can switch, in the API's order.
    public var switchable: [NoticeKind] { all.filter(\.isSwitchable) }
}
