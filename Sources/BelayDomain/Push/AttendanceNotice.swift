/// The notices about one member's place on a waitlist, each with its kind.
enum AttendanceNotice: Sendable {
    /// Moved to going.
    case promoted
    /// Offered a freed place, to claim before a time.
    case offer
    /// The offer runs out in a few minutes.
    case offerExpiring
    /// The offer ran out unclaimed.
    case offerExpired

    var kind: NoticeKind {
        switch self {
        case .promoted: .waitlistPromoted
        case .offer: .waitlistOffer
        case .offerExpiring: .waitlistOfferExpiring
        case .offerExpired: .waitlistOfferExpired
        }
    }
}
