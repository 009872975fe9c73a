import BelayCore
import Foundation

/// Writes a message as MIME (RFC 5322, 2045–2047): UTF-8 headers as encoded words, both
/// bodies base64 in lines of 76, CRLF line endings, no line over 78 characters.
enum MIMEMessage {
    static let lineLimit = 78

    static func render(_ message: MailMessage, from: String, messageIDDomain: String, date: Date) -> String {
        let boundary = "belay-" + Crypto.hex(Crypto.randomBytes(12))
        let messageID = "<" + Crypto.hex(Crypto.randomBytes(16)) + "@" + sanitisedDomain(messageIDDomain) + ">"
        var headers: [String] = [
            header("From", mailbox(from)),
            header("To", mailbox(message.to)),
            header("Subject", unstructured(message.subject)),
            "Date: " + rfc5322Date(date),
            "Message-ID: " + messageID,
            "MIME-Version: 1.0",
        ]
        let language = languageTag(message.language)
        if !language.isEmpty { headers.append("Content-Language: " + language) }
        headers.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
        var lines = headers
        lines.append("")
        for (type, body) in [("text/plain", message.text), ("text/html", message.html)] {
            lines.append("--" + boundary)
            lines.append("Content-Type: \(type); charset=utf-8")
            lines.append("Content-Transfer-Encoding: base64")
            lines.append("")
            lines.append(contentsOf: base64Lines(canonicalLineEndings(body)))
        }
        lines.append("--" + boundary + "--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `Name: tokens`, folded between tokens (before a space) when a line would pass 78.
    private static func header(_ name: String, _ tokens: [String]) -> String {
        var out = name + ":"
        var lineLength = out.utf8.count
        for token in tokens {
            if lineLength + 1 + token.utf8.count > lineLimit && lineLength > name.utf8.count + 1 {
                out += "\r\n " + token
                lineLength = 1 + token.utf8.count
            } else {
                out += " " + token
                lineLength += 1 + token.utf8.count
            }
        }
        return out
    }

    /// Free text (a subject): plain when it is printable ASCII without anything that looks
    /// like an encoded word, else encoded words.
    private static func unstructured(_ text: String) -> [String] {
        let plain = text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && !text.contains("=?")
        if plain {
            let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.allSatisfy({ $0.utf8.count <= lineLimit - 10 && !$0.isEmpty }) { return words }
        }
        return encodedWords(text)
    }

    /// A mailbox's tokens: the display name (quoted or encoded) and `<address>`.
    private static func mailbox(_ text: String) -> [String] {
        guard let mailbox = MailAddress(text) else {
            // Checked before sending; never let a line break through here either.
            return [String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))]
        }
        guard let name = mailbox.displayName else { return [mailbox.address] }
        let printable = name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && !name.contains("=?")
        if printable && name.utf8.count <= 60 {
            let atext = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || " !#$%&'*+-/=?^_`{|}~".unicodeScalars.contains($0) }
            let written = atext ? name : "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            return [written, "<\(mailbox.address)>"]
        }
        return encodedWords(name) + ["<\(mailbox.address)>"]
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words of at most 39 bytes of text each (64 characters), cut
    /// between characters, so that each fits on a folded line.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > 39 {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words
    }

    /// `Tue, 01 Dec 2026 09:30:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// Text with every line break as CRLF, as MIME's canonical form of text wants.
    private static func canonicalLineEndings(_ text: String) -> [UInt8] {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return Array(unified.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    private static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Array(Data(bytes).base64EncodedString().utf8)
        if encoded.isEmpty { return [] }
        return stride(from: 0, to: encoded.count, by: 76).map {
            String(decoding: encoded[$0..<min($0 + 76, encoded.count)], as: UTF8.self)
        }
    }

    /// The characters of a language tag (letters, digits, hyphens) in `text`.
    static func languageTag(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }.map(Character.init))
    }

    private static func sanitisedDomain(_ domain: String) -> String {
        let kept = String(domain.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "." || $0 == "-" }.map(Character.init))
        return kept.isEmpty ? "belay.invalid" : kept
    }
}
