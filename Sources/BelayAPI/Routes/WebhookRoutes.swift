import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// `/v1/webhooks`: endpoints, secrets and delivery logs, for admins only.
    func registerWebhookRoutes(on routes: RouteGroup<APIContext>) {
        routes.get("/v1/webhooks") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let endpoints = try domain.webhooks.endpoints(by: caller.actor)
            return .api(ListBody(items: endpoints.map { WebhookEndpointBody(endpoint: $0, includeSecret: false, presentation: presentation) },
                                 nextCursor: nil))
        }

        routes.post("/v1/webhooks") { request, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let body = try request.decodeJSON(as: CreateWebhookRequest.self)
            let events = try WebhookEventType.parseList((body.events ?? []).joined(separator: ","))
            let endpoint = try domain.webhooks.add(url: body.url, description: body.description ?? "", events: events, by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: true, presentation: presentation), status: .created,
                        headers: ["Cache-Control": "no-store"])
        }

        routes.get("/v1/webhooks/{id}") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let endpoint = try domain.webhooks.endpoint(id: try context.id(), by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: false, presentation: presentation))
        }

        routes.delete("/v1/webhooks/{id}") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            try domain.webhooks.remove(id: try context.id(), by: caller.actor)
            return Response(status: .noContent)
        }

        routes.post("/v1/webhooks/{id}/rotate-secret") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let endpoint = try domain.webhooks.rotateSecret(id: try context.id(), by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: true, presentation: presentation),
                        headers: ["Cache-Control": "no-store"])
        }

        routes.post("/v1/webhooks/{id}/enable") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let endpoint = try domain.webhooks.enable(id: try context.id(), by: caller.actor)
            return .api(WebhookEndpointBody(endpoint: endpoint, includeSecret: false, presentation: presentation))
        }

        routes.post("/v1/webhooks/{id}/test") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let delivery = try domain.webhooks.sendTest(id: try context.id(), by: caller.actor)
            return .api(WebhookDeliveryBody(delivery: delivery, presentation: presentation), status: .accepted)
        }

        routes.post("/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver") { _, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let delivery = try domain.webhooks.redeliver(deliveryID: try context.id("delivery_id"), endpointID: try context.id(), by: caller.actor)
            return .api(WebhookDeliveryBody(delivery: delivery, presentation: presentation), status: .accepted)
        }

        routes.get("/v1/webhooks/{id}/deliveries", query: ["limit", "cursor"]) { request, context in
            let caller = try context.requireRole([.admin], to: "manage webhooks")
            let page = try request.pagination(defaultLimit: 50, maximum: 500)
            let deliveries = try domain.webhooks.deliveries(endpointID: try context.id(), limit: page.limit, cursor: page.cursor,
                                                            by: caller.actor)
            return .api(ListBody(page: deliveries, map: { WebhookDeliveryBody(delivery: $0, presentation: presentation) },
                                 writeItem: { json, item in item.write(to: &json) }))
        }
    }
}
