import BelayCore
import BelayDomain
import Foundation

/// The title and body of a notice as a member reads it, and the words of Belay's own kinds in
/// ko, ja and en, with times in the meetup's own zone. Each takes the facts the writer stored
/// (`NoticeFacts`) and the device's language.
public struct NoticeText: Sendable, Hashable {
    public let title: String
    public let body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    static func waitlistPromoted(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale)
        return switch locale {
        case .en: NoticeText(title: "You're going: \(meetup.title)", body: "A place opened up at \(meetup.place), \(meetup.when). See you there!")
        case .ko: NoticeText(title: "참가 확정: \(meetup.title)", body: "\(meetup.place)에 자리가 났어요. \(meetup.when)에 만나요!")
        case .ja: NoticeText(title: "参加確定: \(meetup.title)", body: "\(meetup.place)に空きが出ました。\(meetup.when)にお会いしましょう！")
        }
    }

    static func waitlistOffer(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale), by = meetup.clock(.offerEndsAt)
        return switch locale {
        case .en: NoticeText(title: "A place is yours to claim", body: "\(meetup.title), \(meetup.when): claim by \(by)")
        case .ko: NoticeText(title: "자리가 났어요", body: "\(meetup.title), \(meetup.when): \(by)까지 확정하세요")
        case .ja: NoticeText(title: "空きが出ました", body: "\(meetup.title)、\(meetup.when)：\(by)までに確定してください")
        }
    }

    static func waitlistOfferExpiring(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale), by = meetup.clock(.offerEndsAt), minutes = facts[number: .warningMinutes] ?? 0
        return switch locale {
        case .en: NoticeText(title: "\(minutes) minutes left to claim your place", body: "\(meetup.title): your offer ends at \(by)")
        case .ko: NoticeText(title: "확정까지 \(minutes)분 남았어요", body: "\(meetup.title): \(by)에 제안이 끝나요")
        case .ja: NoticeText(title: "確定まであと\(minutes)分", body: "\(meetup.title)：\(by)に締め切られます")
        }
    }

    static func waitlistOfferExpired(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let title = MeetupWords(facts, locale).title
        return switch locale {
        case .en: NoticeText(title: "Your offer ran out", body: "\(title): the place went to the next climber. Join again to queue up.")
        case .ko: NoticeText(title: "제안이 끝났어요", body: "\(title): 다음 분께 자리가 넘어갔어요. 다시 참가하면 대기열에 들어가요.")
        case .ja: NoticeText(title: "オファーの期限が切れました", body: "\(title)：次の方に枠が移りました。もう一度参加すると順番待ちに入ります。")
        }
    }

    static func meetupReminder(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale), starts = meetup.clock(.startsAt)
        return switch locale {
        case .en: NoticeText(title: "\(meetup.title) starts at \(starts)", body: "\(meetup.place) · \(meetup.day)")
        case .ko: NoticeText(title: "\(meetup.title) \(starts) 시작", body: "\(meetup.place) · \(meetup.day)")
        case .ja: NoticeText(title: "\(meetup.title) \(starts)開始", body: "\(meetup.place) · \(meetup.day)")
        }
    }

    static func checkInOpen(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale)
        return switch locale {
        case .en: NoticeText(title: "Check-in is open", body: "\(meetup.title) at \(meetup.place): check in when you arrive")
        case .ko: NoticeText(title: "체크인이 열렸어요", body: "\(meetup.title) · \(meetup.place): 도착하면 체크인하세요")
        case .ja: NoticeText(title: "チェックイン受付中", body: "\(meetup.title)・\(meetup.place)：到着したらチェックインしてください")
        }
    }

    static func meetupChanged(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale)
        return switch locale {
        case .en: NoticeText(title: "\(meetup.title) has changed", body: "Now \(meetup.when) at \(meetup.place)")
        case .ko: NoticeText(title: "\(meetup.title) 일정 변경", body: "\(meetup.when), \(meetup.place)(으)로 바뀌었어요")
        case .ja: NoticeText(title: "\(meetup.title)が変更されました", body: "\(meetup.when)・\(meetup.place)に変わりました")
        }
    }

    static func meetupCancelled(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale)
        return switch locale {
        case .en: NoticeText(title: "\(meetup.title) is cancelled", body: "\(meetup.when) at \(meetup.place) will not take place")
        case .ko: NoticeText(title: "\(meetup.title) 취소", body: "\(meetup.when) \(meetup.place) 모임이 취소됐어요")
        case .ja: NoticeText(title: "\(meetup.title)は中止になりました", body: "\(meetup.when)・\(meetup.place)の会は中止です")
        }
    }

    static func rewardReady(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let title = MeetupWords(facts, locale).title, hold = facts[text: .holdName] ?? ""
        return switch locale {
        case .en: NoticeText(title: "Your sticker is ready", body: "\(hold) from \(title): share it to your story")
        case .ko: NoticeText(title: "스티커가 준비됐어요", body: "\(title)에서 받은 \(hold): 스토리에 공유해 보세요")
        case .ja: NoticeText(title: "ステッカーができました", body: "\(title)で獲得した\(hold)：ストーリーでシェアしよう")
        }
    }

    /// "New meetup at 더클라임 강남점, Sat 7 pm, 6 places", with the meetups folded since the last one.
    static func newMeetup(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let meetup = MeetupWords(facts, locale)
        let placesLeft = facts[number: .placesLeft] ?? 0, folded = facts[number: .folded] ?? 0
        switch locale {
        case .en:
            let more = folded > 0 ? " (and \(folded) more since your last notice)" : ""
            return NoticeText(title: "New meetup at \(meetup.place)",
                              body: "\(meetup.title): \(meetup.when), \(placesLeft) \(placesLeft == 1 ? "place" : "places")\(more)")
        case .ko:
            let more = folded > 0 ? " (지난 알림 뒤로 \(folded)개 더)" : ""
            return NoticeText(title: "\(meetup.place)에 새 모임", body: "\(meetup.title): \(meetup.when), \(placesLeft)자리\(more)")
        case .ja:
            let more = folded > 0 ? "（前回の通知以降ほかに\(folded)件）" : ""
            return NoticeText(title: "\(meetup.place)で新しい会", body: "\(meetup.title)：\(meetup.when)、残り\(placesLeft)枠\(more)")
        }
    }

    /// "New personal best: your first V5 send", at the gym when the tick names one.
    static func personalBest(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let grade = facts[text: .grade] ?? "", gym = facts[text: .gymName]
        return switch locale {
        case .en: NoticeText(title: "New personal best!", body: "Your first \(grade) send" + (gym.map { " at \($0)" } ?? ""))
        case .ko: NoticeText(title: "개인 최고 기록!", body: "첫 \(grade) 완등" + (gym.map { " · \($0)" } ?? ""))
        case .ja: NoticeText(title: "自己ベスト更新！", body: "初めての\(grade)完登" + (gym.map { "・\($0)" } ?? ""))
        }
    }

    /// "Last days for your project": a problem the member tried comes down on its removal day.
    static func projectEnding(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let problem = facts[text: .problem] ?? "", gym = facts[text: .gymName] ?? ""
        let removal = facts[text: .removalDay].flatMap(CalendarDay.init) ?? CalendarDay(Date(timeIntervalSince1970: 0), in: .gmt)
        let month = removal.month, day = removal.day
        switch locale {
        case .en:
            return NoticeText(title: "Last days for your project",
                              body: "\(problem) at \(gym) comes down on \(day) \(MeetupWords.months[month - 1]). One more go?")
        case .ko:
            return NoticeText(title: "프로젝트가 곧 철거돼요", body: "\(gym) \(problem) 문제가 \(month)월 \(day)일에 철거될 예정이에요. 한 번 더 도전해 볼까요?")
        case .ja:
            return NoticeText(title: "プロジェクトがもうすぐ撤去されます", body: "\(gym)の\(problem)は\(month)月\(day)日に撤去予定です。もう一度トライしませんか？")
        }
    }

    /// What the moderators did with a report, to its reporter (never who else reported).
    static func reportOutcome(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let acted = (facts[text: .action].flatMap(ModerationActionKind.init(rawValue:)) ?? .dismiss) != .dismiss
        return switch locale {
        case .en: NoticeText(title: "Thank you for your report", body: acted ? "The club's moderators acted on it." : "The club's moderators looked and found nothing against the club's rules.")
        case .ko: NoticeText(title: "신고해 주셔서 고마워요", body: acted ? "클럽 운영진이 조치했어요." : "클럽 운영진이 확인했지만 규칙 위반은 없었어요.")
        case .ja: NoticeText(title: "ご報告ありがとうございます", body: acted ? "クラブの運営が対応しました。" : "クラブの運営が確認しましたが、規約違反は見つかりませんでした。")
        }
    }

    /// A moderator's warning, suspension or hiding, to the member: the rule and where to appeal.
    static func moderation(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        let action = facts[text: .action].flatMap(ModerationActionKind.init(rawValue:)) ?? .dismiss
        let rule = facts[text: .rule] ?? "", appeal = facts[text: .appealAddress]
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

    static func test(_ facts: NoticeFacts, _ locale: MemberLocale) -> NoticeText {
        switch locale {
        case .en: NoticeText(title: "Belay test notice", body: "Notifications reach this phone.")
        case .ko: NoticeText(title: "Belay 테스트 알림", body: "이 기기로 알림이 전달돼요.")
        case .ja: NoticeText(title: "Belay テスト通知", body: "このデバイスに通知が届きます。")
        }
    }
}
