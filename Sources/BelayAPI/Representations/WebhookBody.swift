import BelayCore
import BelayDomain
import Foundation

/// A webhook endpoint as admins see it. The secret is shown only when it was just made
/// (registration, rotation).
struct WebhookEndpointBody: JSONRepresentable {
    let endpoint: WebhookEndpoint
    let includeSecret: Bool
    let presentation: Presentation

    func write(to json: inout JSONOutput) {
        let zone = presentation.clubZone
        json.object { json in
            json.member("id", endpoint.id)
            json.member("url", endpoint.url)
            json.member("description", endpoint.description)
            json.key("events")
            json.array(endpoint.eventTypes.map(\.rawValue).sorted()) { json, name in json.string(name) }
            json.member("status", endpoint.isEnabled ? "enabled" : "disabled")
            json.member("disabled_at", endpoint.disabledAt, offset: zone)
            json.member("disabled_reason", endpoint.disabledReason)
            json.member("failing_since", endpoint.failingSince, offset: zone)
            if includeSecret { json.member("secret", endpoint.secret) }
            json.member("created_at", endpoint.createdAt, offset: zone)
            json.member("updated_at", endpoint.updatedAt, offset: zone)
        }
    }
}

/// One line of an endpoint's delivery log.
struct WebhookDeliveryBody: JSONRepresentable {
    let delivery: WebhookDelivery
    let presentation: Presentation

    func write(to json: inout JSONOutput) {
        let zone = presentation.clubZone
        json.object { json in
            json.member("id", delivery.id)
            json.member("endpoint_id", delivery.endpointID)
            json.member("message_id", delivery.messageID)
            json.member("type", delivery.eventType)
            json.member("status", delivery.status.rawValue)
            json.member("attempts", delivery.attempts)
            json.member("next_attempt_at", delivery.nextAttemptAt, offset: zone)
            json.member("last_attempt_at", delivery.lastAttemptAt, offset: zone)
            json.member("last_status_code", delivery.lastStatusCode)
            json.member("last_error", delivery.lastError)
            json.member("delivered_at", delivery.deliveredAt, offset: zone)
            json.member("created_at", delivery.createdAt, offset: zone)
        }
    }
}
