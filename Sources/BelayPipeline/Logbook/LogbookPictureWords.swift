import Foundation

/// The words of the logbook's pictures in the club's language: Korean, Japanese, otherwise English.
struct LogbookPictureWords {
    let language: String
    let title, boulders, routes, sends, flashes, allTime, recap, sessions, hardest, places: String

    init(locale: String) {
        switch Locale(identifier: locale).language.languageCode?.identifier {
        case "ko":
            language = "ko"
            (title, boulders, routes, sends, flashes, allTime) = ("그레이드 피라미드", "볼더링", "리드·톱로프", "완등", "플래시", "전체 기간")
            (recap, sessions, hardest, places) = ("시즌 기록", "세션", "최고 그레이드", "자주 간 곳")
        case "ja":
            language = "ja"
            (title, boulders, routes, sends, flashes, allTime) = ("グレードピラミッド", "ボルダー", "ルート", "完登", "フラッシュ", "全期間")
            (recap, sessions, hardest, places) = ("シーズン記録", "セッション", "最高グレード", "よく行った場所")
        default:
            language = "en"
            (title, boulders, routes, sends, flashes, allTime) = ("Grade pyramid", "Boulders", "Routes", "sends", "flashes", "all time")
            (recap, sessions, hardest, places) = ("Season recap", "sessions", "hardest", "Where they climbed most")
        }
    }
}
