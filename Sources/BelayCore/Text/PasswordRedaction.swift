import Foundation

/// Connection URLs as Belay shows them in messages, logs and `belay config show`.
public enum PasswordRedaction {
    /// `url` with any password replaced by `***`
    /// (`postgres://belay:***@db.example/belay`); other text unchanged.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
