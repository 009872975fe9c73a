import BelayDomain
import BelayIdentity
import Foundation

/// The sign-in mail in the member's language: the six digits, and the link that opens the app.
enum SignInMail {
    static func message(to email: String, challenge: EmailSignInChallenge, link: String, clubName: String, minutes: Int) -> MailMessage {
        let code = challenge.code
        let spaced = String(code.prefix(3)) + " " + String(code.suffix(3))
        let subject: String
        let lines: [String]
        let button: String
        switch challenge.locale {
        case .ko:
            subject = "\(clubName) 로그인 코드: \(code)"
            lines = ["\(clubName) 로그인 코드입니다.", "코드: \(spaced)", "\(minutes)분 동안 한 번만 쓸 수 있어요.",
                     "요청하지 않았다면 이 메일은 무시하세요."]
            button = "앱에서 로그인"
        case .ja:
            subject = "\(clubName) のログインコード: \(code)"
            lines = ["\(clubName) のログインコードです。", "コード: \(spaced)", "\(minutes)分間、一度だけ使えます。",
                     "心当たりがない場合は、このメールを無視してください。"]
            button = "アプリでログイン"
        case .en:
            subject = "Your \(clubName) sign-in code: \(code)"
            lines = ["Here is your code to sign in to \(clubName).", "Code: \(spaced)", "It works once, for \(minutes) minutes.",
                     "If you did not ask for it, you can ignore this message."]
            button = "Sign in with the app"
        }
        let text = lines[0] + "\n\n" + lines[1] + "\n\n" + button + ": " + link + "\n\n" + lines[2] + "\n" + lines[3] + "\n"
        let html = """
            <!doctype html><html lang="\(challenge.locale.rawValue)"><head><meta charset="utf-8"><title>\(HTMLText.escaped(subject))</title></head>
            <body style="font-family:-apple-system,Segoe UI,Roboto,sans-serif;color:#111">
            <p>\(HTMLText.escaped(lines[0]))</p>
            <p style="font-size:28px;font-weight:700;letter-spacing:4px">\(HTMLText.escaped(spaced))</p>
            <p><a href="\(HTMLText.escaped(link))" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:8px;text-decoration:none">\(HTMLText.escaped(button))</a></p>
            <p style="color:#555">\(HTMLText.escaped(lines[2]))<br>\(HTMLText.escaped(lines[3]))</p>
            </body></html>
            """
        return MailMessage(to: email, subject: subject, text: text, html: html, language: challenge.locale.rawValue)
    }
}
