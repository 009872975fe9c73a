import Foundation

/// An SMTP server on a free loopback port (`scripts/testing/smtp-capture.py`, aiosmtpd) that
/// reads every message with Python's `email` package and reports what it found.
public final class SMTPCaptureProcess: @unchecked Sendable {
    /// One message as Python's `email` package read it.
    public struct Message: Sendable {
        public let mailFrom: String
        public let recipients: [String]
        public let subject: String?
        public let from: String?
        public let to: String?
        public let messageID: String?
        public let date: String?
        public let contentLanguage: String?
        public let text: String?
        public let html: String?
        public let headers: [String: String]
        /// Whether the client logged in.
        public let authenticated: Bool
        public let longestLine: Int
        /// Line feeds not preceded by a carriage return.
        public let bareLineFeeds: Int
        public let raw: String
    }

    private let script: ScriptProcess
    public var port: Int { script.port }

    /// With `user`, the server requires AUTH PLAIN or LOGIN with that user and `password`; with
    /// `spool`, each message is also written to `spool/NNNNNN.json` (for a browser driver the
    /// test starts to read its sign-in codes from).
    public init(user: String? = nil, password: String = "", spool: String? = nil) throws {
        var arguments = user.map { ["--user", $0, "--password", password] } ?? []
        if let spool { arguments += ["--spool", spool] }
        script = try ScriptProcess(script: "smtp-capture.py", arguments: arguments)
    }

    /// `smtp://127.0.0.1:PORT`.
    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// Every message so far.
    public func messages() -> [Message] { script.lines.compactMap(Self.parse) }

    /// The first message, once it comes; nil when `timeout` passed first.
    public func waitForMessage(timeout: TimeInterval = 30) -> Message? {
        waitForMessages(count: 1, timeout: timeout).first
    }

    /// The messages so far, once there are `count`; fewer when `timeout` passed first.
    public func waitForMessages(count: Int, timeout: TimeInterval = 30) -> [Message] {
        _ = script.wait(timeout: timeout) { $0.filter { Self.parse($0) != nil }.count >= count }
        return messages()
    }

    private static func parse(_ line: String) -> Message? {
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return Message(mailFrom: object["mail_from"] as? String ?? "", recipients: object["rcpt_tos"] as? [String] ?? [],
                       subject: object["subject"] as? String, from: object["from"] as? String, to: object["to"] as? String,
                       messageID: object["message_id"] as? String, date: object["date"] as? String,
                       contentLanguage: object["content_language"] as? String, text: object["text"] as? String,
                       html: object["html"] as? String, headers: object["headers"] as? [String: String] ?? [:],
                       authenticated: object["authenticated"] as? Bool ?? false, longestLine: object["longest_line"] as? Int ?? 0,
                       bareLineFeeds: object["bare_line_feeds"] as? Int ?? 0, raw: object["raw"] as? String ?? "")
    }
}
