import BelayCore
import Foundation

/// The title and body of a notice in ko, ja or en, with times in the meetup's own zone.
struct NoticeText: Sendable, Hashable {
    let title: String
    let body: String

    /// What a meetup notice says about its meetup.
    struct MeetupFacts: Sendable {
        let title: String
        let placeName: String
        let startsAt: Date
        let timeZone: TimeZone
    }

    /// What a moderation notice says: what was done, the rule (the moderator's reason), and
    /// where to appeal.
    struct ModerationFacts: Sendable {
        let action: ModerationActionKind
        let rule: String
        let appealAddress: String?
    }

    static func make(_ kind: NoticeKind, locale: MemberLocale, meetup: MeetupFacts?, offerEndsAt: Date? = nil,
                     warningMinutes: Int = 0, holdName: String = "", moderation: ModerationFacts? = nil) -> NoticeText {
        let title = meetup?.title ?? ""
        let place = meetup?.placeName ?? ""
        let zone = meetup?.timeZone ?? .gmt
        let when = meetup.map { dayAndTime($0.startsAt, zone, locale) } ?? ""
        let day = meetup.map { self.day($0.startsAt, zone, locale) } ?? ""
        let startTime = meetup.map { clock($0.startsAt, zone) } ?? ""
        let offerTime = offerEndsAt.map { clock($0, zone) } ?? ""
        switch (kind, locale) {
        case (.waitlistPromoted, .en): return NoticeText(title: "You're going: \(title)", body: "A place opened up at \(place), \(when). See you there!")
        case (.waitlistPromoted, .ko): return NoticeText(title: "참가 확정: \(title)", body: "\(place)에 자리가 났어요. \(when)에 만나요!")
        case (.waitlistPromoted, .ja): return NoticeText(title: "参加確定: \(title)", body: "\(place)に空きが出ました。\(when)にお会いしましょう！")
        case (.waitlistOffer, .en): return NoticeText(title: "A place is yours to claim", body: "\(title), \(when): claim by \(offerTime)")
        case (.waitlistOffer, .ko): return NoticeText(title: "자리가 났어요", body: "\(title), \(when): \(offerTime)까지 확정하세요")
        case (.waitlistOffer, .ja): return NoticeText(title: "空きが出ました", body: "\(title)、\(when)：\(offerTime)までに確定してください")
        case (.waitlistOfferExpiring, .en): return NoticeText(title: "\(warningMinutes) minutes left to claim your place", body: "\(title): your offer ends at \(offerTime)")
        case (.waitlistOfferExpiring, .ko): return NoticeText(title: "확정까지 \(warningMinutes)분 남았어요", body: "\(title): \(offerTime)에 제안이 끝나요")
        case (.waitlistOfferExpiring, .ja): return NoticeText(title: "確定まであと\(warningMinutes)分", body: "\(title)：\(offerTime)に締め切られます")
        case (.waitlistOfferExpired, .en): return NoticeText(title: "Your offer ran out", body: "\(title): the place went to the next climber. Join again to queue up.")
        case (.waitlistOfferExpired, .ko): return NoticeText(title: "제안이 끝났어요", body: "\(title): 다음 분께 자리가 넘어갔어요. 다시 참가하면 대기열에 들어가요.")
        case (.waitlistOfferExpired, .ja): return NoticeText(title: "オファーの期限が切れました", body: "\(title)：次の方に枠が移りました。もう一度参加すると順番待ちに入ります。")
        case (.meetupReminder, .en): return NoticeText(title: "\(title) starts at \(startTime)", body: "\(place) · \(day)")
        case (.meetupReminder, .ko): return NoticeText(title: "\(title) \(startTime) 시작", body: "\(place) · \(day)")
        case (.meetupReminder, .ja): return NoticeText(title: "\(title) \(startTime)開始", body: "\(place) · \(day)")
        case (.checkInOpen, .en): return NoticeText(title: "Check-in is open", body: "\(title) at \(place): check in when you arrive")
        case (.checkInOpen, .ko): return NoticeText(title: "체크인이 열렸어요", body: "\(title) · \(place): 도착하면 체크인하세요")
        case (.checkInOpen, .ja): return NoticeText(title: "チェックイン受付中", body: "\(title)・\(place)：到着したらチェックインしてください")
        case (.meetupChanged, .en): return NoticeText(title: "\(title) has changed", body: "Now \(when) at \(place)")
        case (.meetupChanged, .ko): return NoticeText(title: "\(title) 일정 변경", body: "\(when), \(place)(으)로 바뀌었어요")
        case (.meetupChanged, .ja): return NoticeText(title: "\(title)が変更されました", body: "\(when)・\(place)に変わりました")
        case (.meetupCancelled, .en): return NoticeText(title: "\(title) is cancelled", body: "\(when) at \(place) will not take place")
        case (.meetupCancelled, .ko): return NoticeText(title: "\(title) 취소", body: "\(when) \(place) 모임이 취소됐어요")
        case (.meetupCancelled, .ja): return NoticeText(title: "\(title)は中止になりました", body: "\(when)・\(place)の会は中止です")
        case (.rewardReady, .en): return NoticeText(title: "Your sticker is ready", body: "\(holdName) from \(title): share it to your story")
        case (.rewardReady, .ko): return NoticeText(title: "스티커가 준비됐어요", body: "\(title)에서 받은 \(holdName): 스토리에 공유해 보세요")
        case (.rewardReady, .ja): return NoticeText(title: "ステッカーができました", body: "\(title)で獲得した\(holdName)：ストーリーでシェアしよう")
        case (.newMeetup, _):
            return newMeetup(locale: locale, meetup: meetup ?? MeetupFacts(title: title, placeName: place, startsAt: Date(timeIntervalSince1970: 0), timeZone: zone), place: place, placesLeft: 0, folded: 0)
        case (.personalBest, _), (.projectEnding, _):
            preconditionFailure("\(kind.rawValue) notices are worded by NoticeText.\(kind == .personalBest ? "personalBest" : "projectEnding")")
        case (.reportOutcome, _), (.moderation, _):
            return moderationText(kind, locale: locale, facts: moderation)
        case (.test, .en): return NoticeText(title: "Belay test notice", body: "Notifications reach this phone.")
        case (.test, .ko): return NoticeText(title: "Belay 테스트 알림", body: "이 기기로 알림이 전달돼요.")
        case (.test, .ja): return NoticeText(title: "Belay テスト通知", body: "このデバイスに通知が届きます。")
        }
    }

    /// The words of a report's outcome (to its reporter) and of a moderator's notice (to the member).
    private static func moderationText(_ kind: NoticeKind, locale: MemberLocale, facts: ModerationFacts?) -> NoticeText {
        let action = facts?.action ?? .dismiss
        if kind == .reportOutcome {
            let acted = action != .dismiss
            switch locale {
            case .en: return NoticeText(title: "Thank you for your report", body: acted ? "The club's moderators acted on it." : "The club's moderators looked and found nothing against the club's rules.")
            case .ko: return NoticeText(title: "신고해 주셔서 고마워요", body: acted ? "클럽 운영진이 조치했어요." : "클럽 운영진이 확인했지만 규칙 위반은 없었어요.")
            case .ja: return NoticeText(title: "ご報告ありがとうございます", body: acted ? "クラブの運営が対応しました。" : "クラブの運営が確認しましたが、規約違反は見つかりませんでした。")
            }
        }
        let rule = facts?.rule ?? ""
        let appeal = facts?.appealAddress
        switch locale {
        case .en:
            let what = action == .suspend ? "Your account is suspended" : action == .hide ? "The club's moderators hid what you wrote" : "A warning from the club's moderators"
            return NoticeText(title: what, body: "\(rule) To appeal, \(appeal.map { "write to \($0)" } ?? "write to the club").")
        case .ko:
            let what = action == .suspend ? "계정이 정지됐어요" : action == .hide ? "클럽 운영진이 작성하신 내용을 숨겼어요" : "클럽 운영진의 경고"
            return NoticeText(title: what, body: "\(rule) 이의가 있으면 \(appeal.map { "\($0)(으)로" } ?? "클럽에") 연락해 주세요.")
        case .ja:
            let what = action == .suspend ? "アカウントが停止されました" : action == .hide ? "クラブの運営が投稿を非表示にしました" : "クラブの運営からの警告"
            return NoticeText(title: what, body: "\(rule) 異議がある場合は\(appeal ?? "クラブ")までご連絡ください。")
        }
    }

    /// "New meetup at 더클라임 강남점, Sat 7 pm, 6 places", with the meetups folded since the last one.
    static func newMeetup(locale: MemberLocale, meetup: MeetupFacts, place: String, placesLeft: Int, folded: Int) -> NoticeText {
        let when = dayAndTime(meetup.startsAt, meetup.timeZone, locale)
        switch locale {
        case .en:
            let more = folded > 0 ? " (and \(folded) more since your last notice)" : ""
            return NoticeText(title: "New meetup at \(place)", body: "\(meetup.title): \(when), \(placesLeft) \(placesLeft == 1 ? "place" : "places")\(more)")
        case .ko:
            let more = folded > 0 ? " (지난 알림 뒤로 \(folded)개 더)" : ""
            return NoticeText(title: "\(place)에 새 모임", body: "\(meetup.title): \(when), \(placesLeft)자리\(more)")
        case .ja:
            let more = folded > 0 ? "（前回の通知以降ほかに\(folded)件）" : ""
            return NoticeText(title: "\(place)で新しい会", body: "\(meetup.title)：\(when)、残り\(placesLeft)枠\(more)")
        }
    }

    /// "New personal best: your first V5 send", at the gym when the tick names one.
    static func personalBest(locale: MemberLocale, grade: String, gym: String?) -> NoticeText {
        switch locale {
        case .en: return NoticeText(title: "New personal best!", body: "Your first \(grade) send" + (gym.map { " at \($0)" } ?? ""))
        case .ko: return NoticeText(title: "개인 최고 기록!", body: "첫 \(grade) 완등" + (gym.map { " · \($0)" } ?? ""))
        case .ja: return NoticeText(title: "自己ベスト更新！", body: "初めての\(grade)完登" + (gym.map { "・\($0)" } ?? ""))
        }
    }

    /// "Last days for your project": a problem the member tried comes down on `removalDay`.
    static func projectEnding(locale: MemberLocale, problem: String, gym: String, removalDay: CalendarDay) -> NoticeText {
        let month = removalDay.month, day = removalDay.day
        switch locale {
        case .en:
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            return NoticeText(title: "Last days for your project",
                              body: "\(problem) at \(gym) comes down on \(day) \(months[month - 1]). One more go?")
        case .ko:
            return NoticeText(title: "프로젝트가 곧 철거돼요", body: "\(gym) \(problem) 문제가 \(month)월 \(day)일에 철거될 예정이에요. 한 번 더 도전해 볼까요?")
        case .ja:
            return NoticeText(title: "プロジェクトがもうすぐ撤去されます", body: "\(gym)の\(problem)は\(month)月\(day)日に撤去予定です。もう一度トライしませんか？")
        }
    }

    /// `19:30` in `zone`.
    static func clock(_ instant: Date, _ zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.hour, .minute], from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// `Sat 12 Dec`, `12월 12일 (토)`, `12月12日(土)` in `zone`.
    static func day(_ instant: Date, _ zone: TimeZone, _ locale: MemberLocale) -> String {
        let parts = calendar(zone).dateComponents([.month, .day, .weekday], from: instant)
        let month = parts.month ?? 1, dayOfMonth = parts.day ?? 1, weekday = (parts.weekday ?? 1) - 1
        switch locale {
        case .en:
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            return "\(days[weekday]) \(dayOfMonth) \(months[month - 1])"
        case .ko: return "\(month)월 \(dayOfMonth)일 (\(["일", "월", "화", "수", "목", "금", "토"][weekday]))"
        case .ja: return "\(month)月\(dayOfMonth)日(\(["日", "月", "火", "水", "木", "金", "土"][weekday]))"
        }
    }

    /// The day and the time: `Sat 12 Dec, 19:00`, `12월 12일 (토) 19:00`.
    static func dayAndTime(_ instant: Date, _ zone: TimeZone, _ locale: MemberLocale) -> String {
        day(instant, zone, locale) + (locale == .en ? ", " : " ") + clock(instant, zone)
    }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
