import Foundation

/// `POST /v1/webhooks`. The optional members may be left out but are never `null` (the
/// OpenAPI document types them as non-nullable): `null` is refused naming the member.
struct CreateWebhookRequest: Decodable {
    var url: String
    var description: String?
    /// Event types; missing or empty for every type.
    var events: [String]?

    enum CodingKeys: String, CodingKey {
        case url, description, events
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        description = try container.decodeUnlessAbsent(String.self, forKey: .description)
        events = try container.decodeUnlessAbsent([String].self, forKey: .events)
    }
}
