import BelayDomain

/// The words of the front-desk kiosk and of the check-in link's page, in the languages the
/// share pages speak (the club's `club.locale`: ko, ja, else English).
extension SharePageLanguage {
    /// "12 of 20 checked in".
    func checkedIn(_ count: Int, of total: Int) -> String {
        switch self {
        case .korean: return "\(total)명 중 \(count)명 체크인"
        case .japanese: return "\(total)人中\(count)人がチェックイン済み"
        case .english: return "\(count) of \(total) checked in"
        }
    }

    var scanToCheckIn: String {
        switch self {
        case .korean: return "휴대폰 카메라로 QR 코드를 스캔해 체크인하세요. 앱에 여섯 자리 코드를 입력해도 돼요."
        case .japanese: return "スマートフォンのカメラでQRコードを読み取ってチェックインしてください。アプリで6桁のコードを入力することもできます。"
        case .english: return "Scan the QR code with your phone's camera to check in, or type the six digits into the app."
        }
    }

    /// The accessible name of the QR code.
    var qrLabel: String {
        switch self {
        case .korean: return "체크인 QR 코드"
        case .japanese: return "チェックイン用QRコード"
        case .english: return "Check-in QR code"
        }
    }

    /// "Check-in opens at 18:30".
    func checkInOpens(at time: String) -> String {
        switch self {
        case .korean: return "체크인은 \(time)에 열려요"
        case .japanese: return "チェックインは\(time)に始まります"
        case .english: return "Check-in opens at \(time)"
        }
    }

    var reconnecting: String {
        switch self {
        case .korean: return "다시 연결하는 중…"
        case .japanese: return "再接続しています…"
        case .english: return "Reconnecting…"
        }
    }

    /// The heading of a kiosk link that no longer shows anything.
    func kioskGoneTitle(_ reason: KioskGoneReason) -> String {
        switch (self, reason) {
        case (.korean, .revoked): return "사용이 중지된 키오스크 링크예요"
        case (.korean, .closed): return "체크인이 끝났어요"
        case (.korean, .cancelled): return "취소된 모임이에요"
        case (.japanese, .revoked): return "このキオスクのリンクは停止されました"
        case (.japanese, .closed): return "チェックインは終了しました"
        case (.japanese, .cancelled): return "この集まりは中止になりました"
        case (.english, .revoked): return "This kiosk link was turned off"
        case (.english, .closed): return "Check-in is over"
        case (.english, .cancelled): return "This meetup was cancelled"
        }
    }

    func kioskGoneDetail(_ reason: KioskGoneReason) -> String {
        switch (self, reason) {
        case (.korean, .revoked): return "호스트가 이 링크를 취소했어요. 새 링크를 호스트에게 받아 주세요."
        case (.korean, .closed): return "이 모임의 체크인 시간이 지났어요."
        case (.korean, .cancelled): return "체크인할 모임이 없어요."
        case (.japanese, .revoked): return "ホストがこのリンクを取り消しました。新しいリンクをホストに依頼してください。"
        case (.japanese, .closed): return "この集まりのチェックイン時間は終わりました。"
        case (.japanese, .cancelled): return "チェックインする集まりはありません。"
        case (.english, .revoked): return "A host revoked it. Ask the host for a new link."
        case (.english, .closed): return "The check-in window of this meetup has closed."
        case (.english, .cancelled): return "There is nothing to check in to."
        }
    }

    var kioskNotFoundDetail: String {
        switch self {
        case .korean: return "링크가 올바른지 확인하거나 호스트에게 새 키오스크 링크를 받아 주세요."
        case .japanese: return "リンクが正しいか確認するか、ホストに新しいキオスクのリンクを依頼してください。"
        case .english: return "Check that the link is complete, or ask the host for a new kiosk link."
        }
    }

    /// The heading of the check-in link's page, for a phone without the app.
    func checkInWithApp(club: String) -> String {
        switch self {
        case .korean: return "\(club) 앱으로 체크인하세요"
        case .japanese: return "\(club)のアプリでチェックイン"
        case .english: return "Check in with the \(club) app"
        }
    }

    var checkInWithAppDetail: String {
        switch self {
        case .korean: return "앱이 설치된 휴대폰에서는 이 링크가 앱을 열어 바로 체크인해요. 앱이 없다면 설치하고 로그인한 뒤, 프런트의 QR 코드를 다시 스캔하세요."
        case .japanese: return "アプリが入っているスマートフォンでは、このリンクがアプリを開いてそのままチェックインします。アプリがない場合はインストールしてサインインし、受付のQRコードをもう一度読み取ってください。"
        case .english: return "On a phone with the app, this link opens it and checks you in. No app yet? Install it, sign in, then scan the QR code at the front desk again."
        }
    }

    /// "Code: 123 456" under the check-in link's explanation.
    func codeInLink(_ code: String) -> String {
        switch self {
        case .korean: return "체크인 코드: \(code)"
        case .japanese: return "チェックインコード：\(code)"
        case .english: return "Check-in code: \(code)"
        }
    }
}
