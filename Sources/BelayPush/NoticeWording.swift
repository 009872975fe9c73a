import BelayCore
import BelayDomain
import Foundation

/// The words of each kind of notice, by kind: what turns a stored notice (its kind, the
/// device's language and the facts the domain wrote) into the title and body a member reads.
/// APNs and FCM both word a notice through it before building their own payloads.
///
/// A kind is worded by being added here (`adding`); `unworded` names the kinds of a catalogue
/// with no words, and the server refuses to start with one.
public struct NoticeWording: Sendable {
    /// A kind's words: its facts, in the device's language, as a member reads them.
    public typealias Words = @Sendable (NoticeFacts, MemberLocale) -> NoticeText

    private let words: [NoticeKind: Words]

    private init(_ words: [NoticeKind: Words]) {
        self.words = words
    }

    /// The words of Belay's own kinds.
    public static let belay = NoticeWording([
        .waitlistPromoted: NoticeText.waitlistPromoted,
        .waitlistOffer: NoticeText.waitlistOffer,
        .waitlistOfferExpiring: NoticeText.waitlistOfferExpiring,
        .waitlistOfferExpired: NoticeText.waitlistOfferExpired,
        .meetupReminder: NoticeText.meetupReminder,
        .checkInOpen: NoticeText.checkInOpen,
        .meetupChanged: NoticeText.meetupChanged,
        .meetupCancelled: NoticeText.meetupCancelled,
        .rewardReady: NoticeText.rewardReady,
        .newMeetup: NoticeText.newMeetup,
        .personalBest: NoticeText.personalBest,
        .projectEnding: NoticeText.projectEnding,
        .reportOutcome: NoticeText.reportOutcome,
        .moderation: NoticeText.moderation,
        .test: NoticeText.test,
    ])

    /// These words and `words` for `kind` (in place of any it had).
    public func adding(_ kind: NoticeKind, words: @escaping Words) -> NoticeWording {
        var all = self.words
        all[kind] = words
        return NoticeWording(all)
    }

    /// The kinds of `kinds` that have no words here, in the catalogue's order.
    public func unworded(_ kinds: NoticeKinds) -> [NoticeKind] {
        kinds.all.filter { words[$0] == nil }
    }

    /// The words of `kind` from `facts` in `locale`; nil when the kind has none here.
    public func text(_ kind: NoticeKind, _ facts: NoticeFacts, in locale: MemberLocale) -> NoticeText? {
        words[kind].map { $0(facts, locale) }
    }

    /// The notice as the app gets it: `title` and `body` worded from the stored facts in the
    /// stored language, then what the writer stored for the app (`kind`, `link`, `image`, the
    /// ids), without the facts and language themselves. A notice queued by a Belay that wrote
    /// its words into the outbox keeps them.
    func shown(_ delivery: PushDelivery) -> JSONObject { shown(delivery.kind, stored: delivery.payload) }

    /// The notice of `kind` stored as `payload` (`push_notices.payload`) as the app gets it, as `shown(_:)`.
    public func shown(_ kind: NoticeKind, stored payload: [UInt8]) -> JSONObject {
        let stored = (try? JSONParser.parse(payload))?.objectValue ?? JSONObject()
        var shown = JSONObject()
        if let facts = stored["facts"]?.objectValue {
            let locale = stored["locale"]?.stringValue.flatMap(MemberLocale.init(rawValue:)) ?? .en
            let text = self.text(kind, NoticeFacts(facts), in: locale) ?? NoticeText(title: "Belay", body: "")
            shown["title"] = .string(text.title)
            shown["body"] = .string(text.body)
        } else {
            shown["title"] = stored["title"] ?? .string("")
            shown["body"] = stored["body"] ?? .string("")
        }
        for (key, value) in stored where !["title", "body", "facts", "locale"].contains(key) { shown[key] = value }
        return shown
    }
}
