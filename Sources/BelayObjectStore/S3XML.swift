import Foundation

/// The few pieces of S3's XML answers Belay reads (error codes, listings, upload ids), found
/// by their element names: S3's answers are flat, with no attributes on these elements.
enum S3XML {
    /// The text of the first `<name>` element, entities decoded.
    static func value(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"), let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex) else {
            return nil
        }
        return unescape(String(text[open.upperBound..<close.lowerBound]))
    }

    /// The inner text of every `<name>` element.
    static func elements(_ name: String, in text: String) -> [String] {
        var found: [String] = []
        var rest = text.startIndex..<text.endIndex
        while let open = text.range(of: "<\(name)>", range: rest), let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex) {
            found.append(String(text[open.upperBound..<close.lowerBound]))
            rest = close.upperBound..<text.endIndex
        }
        return found
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#34;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
