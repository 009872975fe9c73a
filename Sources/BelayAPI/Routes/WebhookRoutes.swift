import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// `/v1/webhooks`: endpoints, secrets and delivery logs, for admins only.
    func registerWebhookRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.listWebhooks, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            let endpoints = try domain.webhooks.endpoints(by: caller.actor)
            return .api(ListBody(items: endpoints.map { WebhookEndpointBody(endpoint: $0, includeSecret: false, presentation: presentation) },
                                 nextCursor: nil))
        }

        routes.on(Operations.addWebhook, allowing: [.admin], to: "manage webhooks") { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: CreateWebhookRequest.self)
            let events = try WebhookEventType.parseList((body.events ?? []).joined(separator: ","))
            let endpoint = try domain.webhooks.add(url: body.url, description: body.description ?? "", events: events, by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: true, presentation: presentation), status: .created,
                        headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.getWebhook, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            let endpoint = try domain.webhooks.endpoint(id: try context.id(), by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: false, presentation: presentation))
        }

        routes.on(Operations.removeWebhook, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            try domain.webhooks.remove(id: try context.id(), by: caller.actor)
            return Response(status: .noContent)
        }

        routes.on(Operations.rotateWebhookSecret, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            let endpoint = try domain.webhooks.rotateSecret(id: try context.id(), by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: true, presentation: presentation),
                        headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.enableWebhook, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            let endpoint = try domain.webhooks.enable(id: try context.id(), by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: false, presentation: presentation))
        }

        routes.on(Operations.testWebhook, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            let delivery = try domain.webhooks.sendTest(id: try context.id(), by: caller.actor)
            return .api(WebhookDeliveryBody(delivery: delivery, presentation: presentation), status: .accepted)
        }

        routes.on(Operations.redeliverWebhook, allowing: [.admin], to: "manage webhooks") { _, context in
            let caller = context.caller
            let delivery = try domain.webhooks.redeliver(deliveryID: try context.id("delivery_id"), endpointID: try context.id(), by: caller.actor)
            return .api(WebhookDeliveryBody(delivery: delivery, presentation: presentation), status: .accepted)
        }

        routes.on(Operations.webhookDeliveries, allowing: [.admin], to: "manage webhooks") { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 50, maximum: 500)
            let deliveries = try domain.webhooks.deliveries(endpointID: try context.id(), limit: page.limit, cursor: page.cursor,
                                                            by: caller.actor)
            return .api(ListBody(page: deliveries, map: { WebhookDeliveryBody(delivery: $0, presentation: presentation) },
                                 writeItem: { json, item in item.write(to: &json) }))
        }
    }
}
