import Foundation

/// Where and how Belay sends mail.
public struct SMTPSettings: Sendable {
    /// `smtp://host:port` (with `requireTLS`, STARTTLS must succeed) or `smtps://host:port`.
    public var url: String
    public var username: String?
    public var password: String?
    /// The sender: `Belay <belay@club.example>` or a bare address.
    public var from: String
    /// Whether an `smtp://` connection must be upgraded with STARTTLS before anything is sent.
    public var requireTLS: Bool
    /// The longest one message may take, connection included.
    public var timeout: TimeInterval

    public init(url: String, username: String? = nil, password: String? = nil, from: String,
                requireTLS: Bool, timeout: TimeInterval = 30) {
        self.url = url
        self.username = username
        self.password = password
        self.from = from
        self.requireTLS = requireTLS
        self.timeout = timeout
    }
}

/// One message to one member, in both plain text and HTML.
public struct MailMessage: Sendable {
    /// The recipient: a bare address or `Name <address>`.
    public var to: String
    public var subject: String
    public var text: String
    public var html: String
    /// The language of the message ("ko", "ja", "en"): its `Content-Language`.
    public var language: String

    public init(to: String, subject: String, text: String, html: String, language: String) {
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.language = language
    }
}

/// Why a message was not sent. The description names the recipient, the server (without a
/// password) and the server's reply; never the password.
public struct MailDeliveryError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The message or the settings cannot be sent as they are (a bad address, URL, language).
        case invalid
        /// The server could not be reached or did not answer in time: worth trying again.
        case unreachable
        /// The server would not upgrade to TLS, and the settings require it.
        case tlsUnavailable = "tls_unavailable"
        /// The server refused the login, the sender, the recipient or the message.
        case refused
    }

    public let code: Code
    /// The server's last SMTP reply code, when it gave one.
    public let replyCode: Int?
    public let description: String

    public init(code: Code, replyCode: Int? = nil, description: String) {
        self.code = code
        self.replyCode = replyCode
        self.description = description
    }
}

/// A mailbox as written in `From` and `To`: `Name <address>` or a bare address.
struct MailAddress: Equatable {
    let displayName: String?
    let address: String

    /// nil when `text` is not one mailbox: no `@`, spaces, brackets or line breaks in the
    /// address, or a line break anywhere.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            let unquoted = name.count >= 2 && name.hasPrefix("\"") && name.hasSuffix("\"") ? String(name.dropFirst().dropLast()) : name
            displayName = unquoted.isEmpty ? nil : unquoted
            address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        } else {
            displayName = nil
            address = trimmed
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !address.contains(where: { " <>()[],;:\\\"".contains($0) }) else { return nil }
    }

    /// The part after `@`.
    var domain: String { String(address[address.index(after: address.lastIndex(of: "@") ?? address.startIndex)...]) }
}
