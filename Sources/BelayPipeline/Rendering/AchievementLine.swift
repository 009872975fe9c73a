import BelayDomain
import Foundation

/// What the day meant, in the line a story and a share card lead with, as Strava's cards do:
/// "12th check-in · 5-week streak", "First climb with the club". Made from the reward's facts
/// (its check-in number and streak milestone) in the club's language: Korean, Japanese,
/// otherwise English. When the member logged what they climbed at the meetup, the line says
/// that instead: a personal best of the day first ("First V5 send"), then the sends and the
/// hardest ("7 sends · best V5").
public struct AchievementLine: Sendable, Hashable {
    /// The member's check-in number of the reward (1 for their first); nil when unknown.
    public var checkInNumber: Int?
    /// N when the reward is for making the member's weekly streak N weeks long.
    public var streakWeeks: Int?
    /// What the member logged at the meetup, when they logged anything.
    public var climbing: ClimbingDay?

    public init(checkInNumber: Int?, streakWeeks: Int? = nil, climbing: ClimbingDay? = nil) {
        self.checkInNumber = checkInNumber
        self.streakWeeks = streakWeeks
        self.climbing = climbing
    }

    /// The line in the language of `locale` (`ko_KR`, `ja_JP`, `en_GB`, …); "" when there is
    /// nothing to say.
    public func text(locale: String) -> String {
        let language = Language(locale: locale)
        if let climbing, climbing.sends > 0 {
            var parts: [String] = []
            if let best = climbing.personalBest { parts.append(language.firstSend(best)) }
            parts.append(language.sends(climbing.sends))
            if let hardest = climbing.hardest, hardest != climbing.personalBest { parts.append(language.best(hardest)) }
            return parts.joined(separator: " · ")
        }
        var parts: [String] = []
        if checkInNumber == 1 {
            parts.append(language.firstClimb)
        } else if let number = checkInNumber, number > 1 {
            parts.append(language.checkIn(number))
        }
        if let weeks = streakWeeks, weeks >= 2 { parts.append(language.streak(weeks)) }
        return parts.joined(separator: " · ")
    }

    enum Language {
        case korean, japanese, english

        init(locale: String) {
            switch Locale(identifier: locale).language.languageCode?.identifier {
            case "ko": self = .korean
            case "ja": self = .japanese
            default: self = .english
            }
        }

        var firstClimb: String {
            switch self {
            case .korean: "클럽과 함께한 첫 클라이밍"
            case .japanese: "クラブで初めてのクライミング"
            case .english: "First climb with the club"
            }
        }

        func checkIn(_ number: Int) -> String {
            switch self {
            case .korean: "\(number)번째 체크인"
            case .japanese: "\(number)回目のチェックイン"
            case .english: "\(AchievementLine.englishOrdinal(number)) check-in"
            }
        }

        func firstSend(_ grade: String) -> String {
            switch self {
            case .korean: "첫 \(grade) 완등"
            case .japanese: "初の\(grade)完登"
            case .english: "First \(grade) send"
            }
        }

        func sends(_ count: Int) -> String {
            switch self {
            case .korean: "\(count)개 완등"
            case .japanese: "\(count)本完登"
            case .english: count == 1 ? "1 send" : "\(count) sends"
            }
        }

        func best(_ grade: String) -> String {
            switch self {
            case .korean: "최고 \(grade)"
            case .japanese: "最高\(grade)"
            case .english: "best \(grade)"
            }
        }

        func streak(_ weeks: Int) -> String {
            switch self {
            case .korean: "\(weeks)주 연속"
            case .japanese: "\(weeks)週連続"
            case .english: "\(weeks)-week streak"
            }
        }
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th.
    static func englishOrdinal(_ number: Int) -> String {
        let suffix = switch (number % 100, number % 10) {
        case (11...13, _): "th"
        case (_, 1): "st"
        case (_, 2): "nd"
        case (_, 3): "rd"
        default: "th"
        }
        return "\(number)\(suffix)"
    }
}
