import Foundation

/// Connection URLs as Belay shows them in messages, logs and `belay config show`.
public enum PasswordRedaction {
    /// Query parameters and connection keywords that carry a secret (libpq takes both
    /// `postgres://u@h/db?password=…` and `host=h password=…`).
    static let secretKeys: Set<String> = ["password", "sslpassword", "pass", "passwd"]

    /// `url` with every password replaced by `***`: the user-info password
    /// (`postgres://belay:***@db.example/belay`), a `password=` (or `sslpassword=`) query
    /// parameter, and `password=` in a `key=value` connection string; other text unchanged.
    public static func redacted(_ url: String) -> String {
        if var components = URLComponents(string: url), components.scheme != nil {
            var changed = false
            if components.password != nil {
                components.password = "***"
                changed = true
            }
            if let items = components.queryItems, items.contains(where: { secretKeys.contains($0.name.lowercased()) }) {
                components.queryItems = items.map { secretKeys.contains($0.name.lowercased()) ? URLQueryItem(name: $0.name, value: "***") : $0 }
                changed = true
            }
            return changed ? (components.string ?? masked(keywords: url)) : url
        }
        return masked(keywords: url)
    }

    /// `password=…` (quoted or not) in a libpq `key=value` string, masked.
    static func masked(keywords text: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: #"(?i)\b(sslpassword|password|passwd|pass)(\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)"#) else {
            return text
        }
        let range = NSRange(text.startIndex..., in: text)
        return expression.stringByReplacingMatches(in: text, range: range, withTemplate: "$1$2***")
    }
}
