/// Who signs a member's ID token.
public enum IdentityProvider: String, Sendable {
    case apple
    case google

    /// The `iss` values this provider's tokens carry.
    public var issuers: [String] {
        switch self {
        case .apple: ["https://appleid.apple.com"]
        case .google: ["accounts.google.com", "https://accounts.google.com"]
        }
    }

    /// The provider's name for people: "Apple", "Google".
    public var displayName: String {
        switch self {
        case .apple: "Apple"
        case .google: "Google"
        }
    }
}
