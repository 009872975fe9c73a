import BelayCore
import BelayIdentity
import BelayTestSupport
import Foundation
import Testing

/// Mail through a real SMTP server (aiosmtpd), read back by Python's `email` package.
@Suite struct SMTPMailerTests {
    let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))

    static let message = MailMessage(
        to: "member@example.com",
        subject: "이번 주 모임 안내: 토요일 오전 10시 클라이밍 센터에서 만나요 🧗",
        text: "안녕하세요!\n이번 주 토요일 모임을 알려 드립니다.\n\n장소: 서울 클라이밍 센터\n" + String(repeating: "긴 줄 ", count: 40),
        html: "<p>안녕하세요!</p><p>이번 주 <b>토요일</b> 모임을 알려 드립니다.</p>",
        language: "ko")

    @Test func sendsAKoreanMessageThatPythonReadsBack() throws {
        let capture = try SMTPCaptureProcess(user: "belay", password: "s3cret pass")
        let mailer = SMTPMailer(settings: SMTPSettings(url: capture.url, username: "belay", password: "s3cret pass",
                                                       from: "Belay 클럽 <belay@club.example>", requireTLS: false, timeout: 10),
                                clock: clock)
        try mailer.send(Self.message)
        let received = try #require(capture.waitForMessage())
        #expect(received.authenticated)
        #expect(received.mailFrom == "belay@club.example")
        #expect(received.recipients == ["member@example.com"])
        #expect(received.subject == Self.message.subject)
        #expect(received.from == "Belay 클럽 <belay@club.example>")
        #expect(received.to == "member@example.com")
        #expect(received.text?.replacingOccurrences(of: "\r\n", with: "\n") == Self.message.text)
        #expect(received.html?.replacingOccurrences(of: "\r\n", with: "\n") == Self.message.html)
        #expect(received.contentLanguage == "ko")
        #expect(received.date == "Fri, 15 Jan 2027 08:00:00 +0000")
        let messageID = try #require(received.messageID)
        #expect(messageID.range(of: #"^<[0-9a-f]{32}@club\.example>$"#, options: .regularExpression) != nil, "\(messageID)")
        #expect(received.headers["MIME-Version"] == "1.0")
        #expect(received.longestLine <= 78)
        #expect(received.bareLineFeeds == 0)
    }

    @Test func sendsMessagesOneAfterAnotherWithOneMailer() throws {
        let capture = try SMTPCaptureProcess()
        let mailer = SMTPMailer(settings: SMTPSettings(url: capture.url, from: "belay@club.example", requireTLS: false, timeout: 10), clock: clock)
        for index in 0..<3 {
            var message = Self.message
            message.subject = "Reminder \(index)"
            message.language = "en"
            try mailer.send(message)
        }
        let received = capture.waitForMessages(count: 3)
        #expect(received.map(\.subject) == ["Reminder 0", "Reminder 1", "Reminder 2"])
        #expect(received.allSatisfy { $0.contentLanguage == "en" && !$0.authenticated })
    }

    @Test func requiresTLSWhenTheSettingsSaySo() throws {
        let capture = try SMTPCaptureProcess()
        let mailer = SMTPMailer(settings: SMTPSettings(url: capture.url, username: "belay", password: "never-shown",
                                                       from: "belay@club.example", requireTLS: true, timeout: 10), clock: clock)
        #expect { try mailer.send(Self.message) } throws: {
            guard let error = $0 as? MailDeliveryError else { return false }
            return error.code == .tlsUnavailable && !error.description.contains("never-shown")
        }
        #expect(capture.messages().isEmpty)
    }

    @Test func aRefusedLoginSaysSoWithoutThePassword() throws {
        let capture = try SMTPCaptureProcess(user: "belay", password: "right")
        let mailer = SMTPMailer(settings: SMTPSettings(url: capture.url, username: "belay", password: "wrong-secret",
                                                       from: "belay@club.example", requireTLS: false, timeout: 10), clock: clock)
        do {
            try mailer.send(Self.message)
            Issue.record("a wrong password was accepted")
        } catch let error as MailDeliveryError {
            #expect(error.code == .refused)
            #expect(error.replyCode == 535)
            #expect(!error.description.contains("wrong-secret"))
            #expect(error.description.contains("belay"))
        }
    }

    @Test func refusesAddressesThatWouldInjectHeaders() throws {
        let mailer = SMTPMailer(settings: SMTPSettings(url: "smtp://127.0.0.1:1", from: "belay@club.example", requireTLS: false), clock: clock)
        var message = Self.message
        message.to = "member@example.com\r\nBcc: everyone@example.com"
        #expect { try mailer.send(message) } throws: { ($0 as? MailDeliveryError)?.code == .invalid }
        message.to = "member@example.com"
        message.language = "ko\r\nX: y"
        #expect { try mailer.send(message) } throws: { ($0 as? MailDeliveryError)?.code == .invalid }
    }

    @Test func theMIMEHasShortCRLFLinesAndEncodedWords() {
        let mime = SMTPMailer.mime(for: Self.message, from: "\"Belay, the club\" <belay@club.example>",
                                   messageIDDomain: "club.example", date: clock.now())
        let lines = mime.components(separatedBy: "\r\n")
        #expect(!mime.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(lines.contains("From: \"Belay, the club\" <belay@club.example>"))
        #expect(lines.contains("To: member@example.com"))
        #expect(lines.contains { $0.hasPrefix("Subject: =?UTF-8?B?") })
        #expect(lines.contains("Date: Fri, 15 Jan 2027 08:00:00 +0000"))
        #expect(lines.contains("Content-Language: ko"))
        #expect(lines.contains("Content-Type: text/plain; charset=utf-8"))
        #expect(lines.contains("Content-Type: text/html; charset=utf-8"))
        var plain = Self.message
        plain.subject = "Saturday meetup"
        let ascii = SMTPMailer.mime(for: plain, from: "belay@club.example", messageIDDomain: "club.example", date: clock.now())
        #expect(ascii.contains("\r\nSubject: Saturday meetup\r\n"))
    }
}
