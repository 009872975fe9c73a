import BelayDomain

/// The words of a meetup's public page, in the club's language.
extension SharePageLanguage {
    var appleMaps: String { switch self { case .korean: "Apple 지도"; case .japanese: "Appleマップ"; case .english: "Apple Maps" } }
    var googleMaps: String { switch self { case .korean: "Google 지도"; case .japanese: "Googleマップ"; case .english: "Google Maps" } }
    var levelLabel: String { switch self { case .korean: "레벨"; case .japanese: "レベル"; case .english: "Level" } }
    var utcLabel: String { switch self { case .korean: "세계 표준시"; case .japanese: "協定世界時"; case .english: "UTC" } }
    var addToCalendar: String { switch self { case .korean: "캘린더에 추가"; case .japanese: "カレンダーに追加"; case .english: "Add to calendar" } }
    var meetupGoneDetail: String {
        switch self {
        case .korean: "이 모임의 페이지는 더 이상 공개되지 않아요."
        case .japanese: "この会のページは公開を終了しました。"
        case .english: "This meetup's page is no longer published."
        }
    }

    func hostedBy(_ name: String) -> String {
        switch self {
        case .korean: "호스트: \(name)"
        case .japanese: "ホスト：\(name)"
        case .english: "Hosted by \(name)"
        }
    }

    func tagName(_ tag: MeetupTag) -> String {
        switch (tag, self) {
        case (.beginnerFriendly, .korean): "초보 환영"
        case (.beginnerFriendly, .japanese): "初心者歓迎"
        case (.beginnerFriendly, .english): "Beginner-friendly"
        case (.coaching, .korean): "코칭"
        case (.coaching, .japanese): "コーチング"
        case (.coaching, .english): "Coaching"
        case (.women, .korean): "여성"
        case (.women, .japanese): "女性"
        case (.women, .english): "Women"
        case (.outdoorTrip, .korean): "자연 암장"
        case (.outdoorTrip, .japanese): "外岩"
        case (.outdoorTrip, .english): "Outdoor trip"
        case (.training, .korean): "훈련"
        case (.training, .japanese): "トレーニング"
        case (.training, .english): "Training"
        case (.social, .korean): "친목"
        case (.social, .japanese): "交流"
        case (.social, .english): "Social"
        case (.projecting, .korean): "프로젝트"
        case (.projecting, .japanese): "プロジェクト"
        case (.projecting, .english): "Projecting"
        case (.youth, .korean): "청소년"
        case (.youth, .japanese): "ユース"
        case (.youth, .english): "Youth"
        case (.lgbtq, _): "LGBTQ+"
        case (.english, .korean): "영어 사용"
        case (.english, .japanese): "英語"
        case (.english, .english): "In English"
        case (.competition, .korean): "대회"
        case (.competition, .japanese): "コンペ"
        case (.competition, .english): "Competition"
        }
    }
}
