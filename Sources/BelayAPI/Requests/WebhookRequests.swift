import Foundation

/// `POST /v1/webhooks`.
struct CreateWebhookRequest: Decodable {
    var url: String
    var description: String?
    /// Event types; missing or empty for every type.
    var events: [String]?
}
