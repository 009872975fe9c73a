import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    /// Request and response bodies of the webhook routes, and the payload receivers get.
    static let webhookSchemas: [String: JSONValue] = {
        let eventTypes = WebhookEventType.allCases.map(\.rawValue)
        return [
            "WebhookRequest": Schema.object([
                "url": ["type": "string", "format": "uri", "maxLength": 2048, "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+(/[^\\s]*)?$",
                        "description": "Where to POST events: http or https. Loopback, link-local and private addresses are refused unless `webhooks.allow_private_addresses` is 1."],
                "description": Schema.text(.webhookDescription, "What the endpoint is for."),
                "events": Schema.array(of: Schema.enumeration(eventTypes.filter { $0 != WebhookEventType.webhookTest.rawValue })),
            ], optional: ["description", "events"]),
            "WebhookEndpoint": Schema.object([
                "id": Schema.integer,
                "url": Schema.string,
                "description": Schema.string,
                "events": Schema.array(of: Schema.enumeration(eventTypes)),
                "status": Schema.enumeration(["enabled", "disabled"]),
                "disabled_at": Schema.nullable(Schema.dateTime),
                "disabled_reason": Schema.nullable(Schema.string("Why it was disabled (failing for `webhooks.disable_after_hours`, or 410 Gone).")),
                "failing_since": Schema.nullable(Schema.dateTime),
                "secret": Schema.string("`whsec_` and base64: the Standard Webhooks signing secret. Only on registration and rotation."),
                "created_at": Schema.dateTime,
                "updated_at": Schema.dateTime,
            ], optional: ["secret"]),
            "WebhookEndpointList": Schema.list(of: "WebhookEndpoint"),
            "WebhookDelivery": Schema.object([
                "id": Schema.integer,
                "endpoint_id": Schema.integer,
                "message_id": Schema.string("The `webhook-id` header, the same on every attempt."),
                "type": Schema.enumeration(eventTypes),
                "status": Schema.enumeration(WebhookDeliveryStatus.allCases.map(\.rawValue)),
                "attempts": Schema.integer,
                "next_attempt_at": Schema.nullable(Schema.dateTime),
                "last_attempt_at": Schema.nullable(Schema.dateTime),
                "last_status_code": Schema.nullable(Schema.integer),
                "last_error": Schema.nullable(Schema.string),
                "delivered_at": Schema.nullable(Schema.dateTime),
                "created_at": Schema.dateTime,
            ]),
            "WebhookDeliveryList": Schema.list(of: "WebhookDelivery"),
            "WebhookEvent": Schema.object([
                "type": Schema.enumeration(eventTypes),
                "timestamp": Schema.dateTime,
                "data": ["type": "object", "description": "The meetup (`meetup.*`), attendance (`attendance.*`, `check_in.*`) or reward (`reward.ready`) as the API shows it; for `tick.created`, `{\"user_id\": …, \"ticks\": [Tick…]}` with the ticks one request logged (not the private ones); `report.created`: the report's `id`, `subject_type`, `subject_id` and `reason` (never the reporter); `content.hidden`: `subject_type`, `subject_id` and `automatic`; `member.suspended`: the member's `id` and `until` (null: for good)."],
            ], description: "What an endpoint receives, signed as Standard Webhooks 1.0 (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`)."),
        ]
    }()

    /// The top-level `webhooks` member: the request Belay sends to a registered endpoint.
    static let outgoingWebhooks: JSONValue = [
        "event": [
            "post": [
                "summary": "An event, POSTed to each subscribed endpoint, in order, retried with back-off for about a day.",
                "parameters": .array(["webhook-id", "webhook-timestamp", "webhook-signature"].map { name in
                    ["name": .string(name), "in": "header", "required": true, "schema": Schema.string]
                }),
                "requestBody": ["required": true, "content": ["application/json": ["schema": Schema.ref("WebhookEvent")]]],
                "responses": ["2XX": ["description": "Received. Anything else is retried; 410 Gone disables the endpoint."]],
            ],
        ],
    ]
}

/// `/v1/webhooks…`: endpoints and delivery logs, for admins.
extension Operations {
    private static func ok(_ description: String, _ schema: String) -> Answer { Answer(status: 200, description: description, schema: Schema.ref(schema)) }

    static let listWebhooks = OpenAPIOperation(method: .get, path: "/v1/webhooks", operationID: "listWebhooks",
                                               summary: "Every webhook endpoint (admins).", tag: "webhooks",
                                               answers: [ok("The endpoints, oldest first, without their secrets.", "WebhookEndpointList")], problems: [403])
    static let addWebhook = OpenAPIOperation(method: .post, path: "/v1/webhooks", operationID: "addWebhook",
                                             summary: "Register an endpoint (admins); the answer carries its signing secret.", tag: "webhooks",
                                             description: "Loopback, link-local and private addresses are refused (422, `field: url`) unless `webhooks.allow_private_addresses` is 1; the address is checked again when each request connects.",
                                             requestBody: "WebhookRequest",
                                             answers: [Answer(status: 201, description: "Registered; `secret` is shown here and on rotation only.",
                                                              schema: Schema.ref("WebhookEndpoint"))],
                                             problems: [403, 413, 415, 422])
    static let getWebhook = OpenAPIOperation(method: .get, path: "/v1/webhooks/{id}", operationID: "getWebhook",
                                             summary: "One endpoint (admins): enabled, failing since, or disabled and why.", tag: "webhooks",
                                             answers: [ok("The endpoint, without its secret.", "WebhookEndpoint")], problems: [403, 404])
    static let removeWebhook = OpenAPIOperation(method: .delete, path: "/v1/webhooks/{id}", operationID: "removeWebhook",
                                                summary: "Remove an endpoint (admins); nothing more is sent to it.", tag: "webhooks",
                                                answers: [Answer(status: 204, description: "Removed.", schema: nil)], problems: [403, 404])
    static let rotateWebhookSecret = OpenAPIOperation(method: .post, path: "/v1/webhooks/{id}/rotate-secret", operationID: "rotateWebhookSecret",
                                                      summary: "Give an endpoint a new secret (admins); the old one also signs for 24 hours.", tag: "webhooks",
                                                      answers: [ok("The endpoint with its new `secret`.", "WebhookEndpoint")], problems: [403, 404])
    static let enableWebhook = OpenAPIOperation(method: .post, path: "/v1/webhooks/{id}/enable", operationID: "enableWebhook",
                                                summary: "Enable a disabled endpoint (admins); what waited is sent, in order.", tag: "webhooks",
                                                answers: [ok("The endpoint.", "WebhookEndpoint")], problems: [403, 404])
    static let testWebhook = OpenAPIOperation(method: .post, path: "/v1/webhooks/{id}/test", operationID: "testWebhook",
                                              summary: "Queue a signed `webhook.test` event for one endpoint (admins).", tag: "webhooks",
                                              answers: [Answer(status: 202, description: "Queued; follow it in the delivery log.", schema: Schema.ref("WebhookDelivery"))],
                                              problems: [403, 404, 422])
    static let redeliverWebhook = OpenAPIOperation(method: .post, path: "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", operationID: "redeliverWebhook",
                                                   summary: "Send a delivery again (admins): the same event and `webhook-id`, after what is pending about its subject, with a fresh round of attempts.",
                                                   tag: "webhooks",
                                                   answers: [Answer(status: 202, description: "Queued (a delivery still pending is left as it is).", schema: Schema.ref("WebhookDelivery"))],
                                                   problems: [403, 404, 422])
    static let webhookDeliveries = OpenAPIOperation(method: .get, path: "/v1/webhooks/{id}/deliveries", operationID: "webhookDeliveries",
                                                    summary: "An endpoint's delivery log, newest first (admins).", tag: "webhooks",
                                                    queryParameters: [OpenAPIOperation.limit(50, 500), OpenAPIOperation.cursor],
                                                    answers: [ok("A page of deliveries.", "WebhookDeliveryList")], problems: [403, 404])
}
