import BelayDomain

/// The words of share pages in the languages Belay speaks.
enum SharePageLanguage: String, Sendable {
    case korean = "ko"
    case japanese = "ja"
    case english = "en"

    init(locale: String) {
        switch locale.prefix(2).lowercased() {
        case "ko": self = .korean
        case "ja": self = .japanese
        default: self = .english
        }
    }

    /// "Earned at {club}" / "{member} earned it at {club}".
    func earned(by member: String?, club: String) -> String {
        switch (self, member) {
        case let (.korean, member?): return "\(member) 님이 \(club)에서 획득했어요"
        case (.korean, nil): return "\(club)에서 획득한 홀드"
        case let (.japanese, member?): return "\(member)さんが\(club)で獲得しました"
        case (.japanese, nil): return "\(club)で獲得したホールド"
        case let (.english, member?): return "\(member) earned it at \(club)"
        case (.english, nil): return "Earned at \(club)"
        }
    }

    func rarity(_ rarity: HoldRarity) -> String {
        switch (self, rarity) {
        case (.korean, .common): return "일반"
        case (.korean, .uncommon): return "고급"
        case (.korean, .rare): return "희귀"
        case (.korean, .epic): return "에픽"
        case (.japanese, .common): return "コモン"
        case (.japanese, .uncommon): return "アンコモン"
        case (.japanese, .rare): return "レア"
        case (.japanese, .epic): return "エピック"
        case (.english, _): return rarity.rawValue.capitalized
        }
    }

    /// The `og:description`: what, where, when.
    func description(hold: String, place: String, date: String) -> String {
        switch self {
        case .korean: return "\(date) \(place)에서 \(hold) 홀드를 받았어요."
        case .japanese: return "\(date)、\(place)で\(hold)ホールドを獲得。"
        case .english: return "The \(hold) hold, earned at \(place) on \(date)."
        }
    }

    var stickerAlt: String {
        switch self {
        case .korean: return "홀드 스티커"
        case .japanese: return "ホールドのステッカー"
        case .english: return "Hold sticker"
        }
    }

    var openInApp: String {
        switch self {
        case .korean: return "앱에서 열기"
        case .japanese: return "アプリで開く"
        case .english: return "Open in the app"
        }
    }

    var appStore: String {
        switch self {
        case .korean: return "App Store에서 받기"
        case .japanese: return "App Storeで入手"
        case .english: return "Get it on the App Store"
        }
    }

    var playStore: String {
        switch self {
        case .korean: return "Google Play에서 받기"
        case .japanese: return "Google Playで入手"
        case .english: return "Get it on Google Play"
        }
    }

    /// "Verified badge: signed by {club}".
    func badgeVerified(by club: String) -> String {
        switch self {
        case .korean: return "인증된 배지: \(club)의 서명이 확인되었어요"
        case .japanese: return "認証済みバッジ：\(club)の署名を確認しました"
        case .english: return "Verified badge: signed by \(club)"
        }
    }

    var badgeNotVerified: String {
        switch self {
        case .korean: return "배지를 확인할 수 없어요"
        case .japanese: return "バッジを確認できません"
        case .english: return "This badge does not verify"
        }
    }

    var goneTitle: String {
        switch self {
        case .korean: return "더 이상 공유되지 않는 홀드예요"
        case .japanese: return "このホールドは共有が取り消されました"
        case .english: return "This hold is no longer shared"
        }
    }

    var goneDetail: String {
        switch self {
        case .korean: return "체크인이 취소되어 이 보상은 회수되었어요."
        case .japanese: return "チェックインが取り消されたため、この報酬は無効になりました。"
        case .english: return "Its check-in was undone, so the reward was withdrawn."
        }
    }

    /// A page a moderator hid, or whose member is suspended.
    var withheldDetail: String {
        switch self {
        case .korean: return "이 페이지는 클럽 운영진이 내렸어요."
        case .japanese: return "このページはクラブの運営が取り下げました。"
        case .english: return "The club's moderators took this page down."
        }
    }

    var unpublishedDetail: String {
        switch self {
        case .korean: return "공유한 사람이 이 페이지를 내렸어요."
        case .japanese: return "共有した人がこのページを取り下げました。"
        case .english: return "The member who shared it took the page down."
        }
    }

    var notFoundTitle: String {
        switch self {
        case .korean: return "페이지를 찾을 수 없어요"
        case .japanese: return "ページが見つかりません"
        case .english: return "Page not found"
        }
    }

    var notFoundDetail: String {
        switch self {
        case .korean: return "링크가 올바른지 확인해 주세요."
        case .japanese: return "リンクが正しいか確認してください。"
        case .english: return "Check that the link is complete."
        }
    }
}
