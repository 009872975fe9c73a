import BelayCore
import BelayOutbound
import CCurlShim
import Foundation

/// Sends mail through one SMTP server with libcurl: STARTTLS required when the settings say
/// so, login when a username is set, one message per call.
///
/// Threading: safe from any thread; each send uses its own libcurl handle from a small pool,
/// which keeps the connection to the server open between messages.
public final class SMTPMailer: Sendable {
    public let settings: SMTPSettings
    private let clock: any TimeSource
    private let handles = CurlHandlePool(responseLimit: 4096, maximumIdle: 2)

    public init(settings: SMTPSettings, clock: any TimeSource) {
        self.settings = settings
        self.clock = clock
    }

    /// Sends `message` from `settings.from`.
    /// - Throws: `MailDeliveryError`: `invalid` for a bad address, language or server URL;
    ///   `unreachable` when the server cannot be reached in time; `tlsUnavailable` when TLS is
    ///   required and the server does not offer it; `refused` for a refused login, sender,
    ///   recipient or message (with the server's reply code). Never contains the password.
    public func send(_ message: MailMessage) throws {
        let server = PasswordRedaction.redacted(settings.url)
        guard settings.url.hasPrefix("smtp://") || settings.url.hasPrefix("smtps://") else {
            throw MailDeliveryError(code: .invalid, description: "the mail server URL \(server) is neither smtp:// nor smtps://; set it to smtp://host:587 or smtps://host:465")
        }
        guard let sender = MailAddress(settings.from) else {
            throw MailDeliveryError(code: .invalid, description: "the sender \"\(settings.from)\" is not one address (Name <address> or address); fix the mail sender setting")
        }
        guard let recipient = MailAddress(message.to) else {
            throw MailDeliveryError(code: .invalid, description: "the recipient \"\(message.to)\" is not one address")
        }
        guard !message.language.isEmpty, MIMEMessage.languageTag(message.language) == message.language else {
            throw MailDeliveryError(code: .invalid, description: "the language \"\(message.language)\" is not a language tag such as ko, ja or en")
        }
        let mime = Self.mime(for: message, from: settings.from, messageIDDomain: sender.domain, date: clock.now())
        do {
            try handles.withHandle { easy in
                try transfer(Array(mime.utf8), from: sender.address, to: recipient.address, server: server, with: easy)
            }
        } catch let error as MailDeliveryError {
            throw error
        } catch {
            throw MailDeliveryError(code: .unreachable, description: "mail to \(recipient.address) was not sent through \(server): \(error)")
        }
    }

    private func transfer(_ mime: [UInt8], from sender: String, to recipient: String, server: String, with easy: CurlEasyHandle) throws {
        let handle = easy.handle
        let milliseconds = max(1, Int(settings.timeout * 1000))
        var codes: [CURLcode] = [
            belay_curl_setopt_string(handle, CURLOPT_URL, settings.url),
            belay_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            belay_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"),
            belay_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender)>"),
            try easy.setMailRecipients(["<\(recipient)>"]),
            easy.setUpload(mime),
            belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            belay_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            belay_curl_capture_body(handle, easy.body),
            easy.captureErrorText(),
        ]
        if settings.requireTLS {
            codes.append(belay_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)))
        }
        if let username = settings.username {
            codes.append(belay_curl_setopt_string(handle, CURLOPT_USERNAME, username))
            codes.append(belay_curl_setopt_string(handle, CURLOPT_PASSWORD, settings.password ?? ""))
        }
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw MailDeliveryError(code: .invalid, description: "libcurl refused an option for \(server): \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = curl_easy_perform(handle)
        guard result != CURLE_OK else { return }
        let reply = belay_curl_response_code(handle)
        let replyCode = reply > 0 ? reply : nil
        let what = "mail to \(recipient) was not sent through \(server)"
        let replyText = replyCode.map { " (SMTP reply \($0))" } ?? ""
        switch result {
        case CURLE_USE_SSL_FAILED:
            throw MailDeliveryError(code: .tlsUnavailable, replyCode: replyCode,
                                    description: "\(what): the server does not offer STARTTLS, and TLS is required; use smtps://, a server with STARTTLS, or turn off requireTLS only for a server on this machine")
        case CURLE_LOGIN_DENIED:
            throw MailDeliveryError(code: .refused, replyCode: replyCode,
                                    description: "\(what): the server refused the login of \(settings.username ?? "(no user)")\(replyText); check the mail username and password")
        case CURLE_OPERATION_TIMEDOUT:
            throw MailDeliveryError(code: .unreachable, description: "\(what): no answer within \(HTTPCall.seconds(settings.timeout)); try again later")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST:
            throw MailDeliveryError(code: .unreachable, description: "\(what): \(easy.failureText(for: result)); check the mail server URL, or try again later")
        default:
            let refused = (replyCode ?? 0) >= 400
            throw MailDeliveryError(code: refused ? .refused : .unreachable, replyCode: replyCode,
                                    description: "\(what): \(easy.failureText(for: result))\(replyText)")
        }
    }

    /// The message as MIME, exactly as `send` hands it to the server: `From`, `To` and
    /// `Subject` (encoded words when not plain ASCII), `Date`, a random `Message-ID` at
    /// `messageIDDomain`, `Content-Language`, and a multipart/alternative body with the text
    /// and the HTML, each UTF-8 in base64. CRLF line endings, no line over 78 characters.
    public static func mime(for message: MailMessage, from: String, messageIDDomain: String, date: Date) -> String {
        MIMEMessage.render(message, from: from, messageIDDomain: messageIDDomain, date: date)
    }
}
