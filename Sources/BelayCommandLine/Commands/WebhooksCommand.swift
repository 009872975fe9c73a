import Foundation
import BelayComposition
import BelayArguments
import BelayDomain
import BelayRepresentations
import BelayPipeline
import BelayWebhooks

/// `belay webhooks add|list|remove|rotate-secret|enable|test|log|deliver`: endpoints that
/// receive signed events (Standard Webhooks 1.0).
struct WebhooksCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "webhooks", abstract: "Register endpoints that receive signed events, and follow their deliveries.",
            discussion: "Events are queued with the change that caused them and delivered by `belay serve` in the background (or by `belay webhooks deliver`), in order per endpoint, retried with back-off for about a day.",
            subcommands: [Add.self, List.self, Remove.self, RotateSecret.self, Enable.self, Test.self, Log.self, Deliver.self])
    }

    static let id = Argument<Int64>("id", help: "The webhook's id (see `belay webhooks list`).")

    static func status(of endpoint: WebhookEndpoint, zone: TimeZone) -> String {
        if let disabledAt = endpoint.disabledAt {
            return "DISABLED since \(TimeFormatting.local(disabledAt, in: zone)): \(endpoint.disabledReason ?? "by an admin")"
        }
        if let failing = endpoint.failingSince { return "enabled, failing since \(TimeFormatting.local(failing, in: zone))" }
        return "enabled"
    }

    static func events(of endpoint: WebhookEndpoint) -> String {
        endpoint.eventTypes.isEmpty ? "all" : endpoint.eventTypes.map(\.rawValue).sorted().joined(separator: ",")
    }

    /// `belay webhooks add`.
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "add", abstract: "Register an endpoint; prints its signing secret.",
                discussion: "Event types: \(WebhookEventType.allCases.filter { $0 != .webhookTest }.map(\.rawValue).joined(separator: ", ")). Loopback, link-local and private addresses are refused unless webhooks.allow_private_addresses is 1.")
        }

        @Argument("url", help: "Where to POST events (http or https).") var url: String
        @OptionalOption("events", valueName: "types", help: "Comma-separated event types (e.g. check_in.created,reward.ready); all types when left out.") var events: String?
        @OptionalOption("description", valueName: "text", help: "What the endpoint is for.") var description: String?
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let types = try WebhookEventType.parseList(events ?? "")
            let endpoint = try services.webhooks.add(url: url, description: description ?? "", events: types, by: .commandLine)
            if json { return context.printJSON(WebhookEndpointBody(endpoint: endpoint, includeSecret: true, presentation: services.presentation)) }
            context.print(endpoint.secret)
            context.note("Registered webhook \(endpoint.id) for \(endpoint.url) (events: \(WebhooksCommand.events(of: endpoint))). The line above is its signing secret: give it to the receiver to verify signatures; it is not shown again (`belay webhooks rotate-secret \(endpoint.id)` makes a new one).")
        }
    }

    /// `belay webhooks list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List endpoints and whether they are enabled.")
        }

        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let endpoints = try services.webhooks.endpoints(by: .commandLine)
            if json { return context.printJSON(endpoints.map { WebhookEndpointBody(endpoint: $0, includeSecret: false, presentation: services.presentation) }) }
            let zone = services.configuration.club.zone
            var table = Table(columns: ["id", "url", "events", "status"])
            for endpoint in endpoints {
                table.append([String(endpoint.id), endpoint.url, WebhooksCommand.events(of: endpoint), WebhooksCommand.status(of: endpoint, zone: zone)])
            }
            context.printTable(table, emptyMessage: "No webhooks. Register one with `belay webhooks add URL`.")
        }
    }

    /// `belay webhooks remove`.
    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "remove", abstract: "Remove an endpoint; nothing more is sent to it (its log is kept).")
        }

        @Argument(WebhooksCommand.id) var id: Int64

        func run(_ context: CommandContext) throws {
            try context.services().webhooks.remove(id: id, by: .commandLine)
            context.note("Removed webhook \(id).")
        }
    }

    /// `belay webhooks rotate-secret`.
    struct RotateSecret: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "rotate-secret", abstract: "Give an endpoint a new signing secret; prints it.",
                                 discussion: "For 24 hours deliveries carry a signature with the old secret too, so the receiver can switch over.")
        }

        @Argument(WebhooksCommand.id) var id: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let endpoint = try services.webhooks.rotateSecret(id: id, by: .commandLine)
            if json { return context.printJSON(WebhookEndpointBody(endpoint: endpoint, includeSecret: true, presentation: services.presentation)) }
            context.print(endpoint.secret)
            context.note("Webhook \(id) has a new signing secret (above); the old one keeps signing too for 24 hours.")
        }
    }

    /// `belay webhooks enable`.
    struct Enable: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "enable", abstract: "Enable an endpoint that was disabled; what waited for it is sent, in order.")
        }

        @Argument(WebhooksCommand.id) var id: Int64

        func run(_ context: CommandContext) throws {
            let endpoint = try context.services().webhooks.enable(id: id, by: .commandLine)
            context.note("Enabled webhook \(endpoint.id) (\(endpoint.url)).")
        }
    }

    /// `belay webhooks test`.
    struct Test: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "test", abstract: "Queue a signed webhook.test event for one endpoint; prints its webhook-id.",
                                 discussion: "The server delivers it (or run `belay webhooks deliver`); follow it with `belay webhooks log ID`.")
        }

        @Argument(WebhooksCommand.id) var id: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let delivery = try services.webhooks.sendTest(id: id, by: .commandLine)
            if json { return context.printJSON(WebhookDeliveryBody(delivery: delivery, presentation: services.presentation)) }
            context.print(delivery.messageID)
            context.note("Queued a test event for webhook \(id). Follow it with `belay webhooks log \(id)`.")
        }
    }

    /// `belay webhooks log`.
    struct Log: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "log", abstract: "Show an endpoint's deliveries: status, attempts, last answer or error.")
        }

        @Argument(WebhooksCommand.id) var id: Int64
        @Option("limit", valueName: "n", default: 20, help: "How many deliveries to show, newest first (1–500).") var limit: Int
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let endpoint = try services.webhooks.endpoint(id: id, by: .commandLine)
            let deliveries = try services.webhooks.deliveries(endpointID: id, limit: limit, by: .commandLine).items
            if json { return context.printJSON(deliveries.map { WebhookDeliveryBody(delivery: $0, presentation: services.presentation) }) }
            let zone = services.configuration.club.zone
            var table = Table(columns: ["id", "type", "webhook-id", "status", "attempts", "last answer", "when"])
            for delivery in deliveries {
                var answer = "-"
                if let code = delivery.lastStatusCode { answer = "HTTP \(code)" }
                if let error = delivery.lastError { answer = error }
                let when: String
                switch delivery.status {
                case .succeeded: when = delivery.deliveredAt.map { "delivered \(TimeFormatting.local($0, in: zone))" } ?? "delivered"
                case .failed: when = "given up"
                case .pending: when = delivery.nextAttemptAt.map { "next \(TimeFormatting.local($0, in: zone))" } ?? "queued"
                }
                table.append([String(delivery.id), delivery.eventType, delivery.messageID, delivery.status.rawValue,
                              String(delivery.attempts), answer, when])
            }
            context.printTable(table, emptyMessage: "Nothing was sent to webhook \(id) yet.")
            context.note("Webhook \(id) \(endpoint.url): \(WebhooksCommand.status(of: endpoint, zone: zone)).")
        }
    }

    /// `belay webhooks deliver`.
    struct Deliver: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "deliver", abstract: "Send every delivery that is due now, from this process, then exit.",
                                 discussion: "For when `belay serve` is not running (e.g. from cron). Safe next to a running server: each delivery is held by one sender at a time.")
        }

        @Flag(.json) var json: Bool

        struct Output: Encodable { var webhookId: Int64, type: String, messageId: String, attempt: Int, statusCode: Int?, error: String?, outcome: String }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let worker = WebhookDeliveryWorker.make(configuration: services.configuration, domain: services.domain,
                                                    log: { line in context.note(line) })
            let identity = WorkerIdentity.current
            let done = try worker.deliverDue(owner: "\(identity.host):\(identity.pid):webhooks-deliver")
            let outputs = done.map { (attempt: WebhookAttempt, result: WebhookAttemptResult, outcome: WebhookAttemptOutcome?) -> Output in
                let word: String
                switch outcome {
                case .delivered?: word = "delivered"
                case .willRetry?: word = "will retry"
                case .gaveUp?: word = "given up"
                case .endpointDisabled?: word = "endpoint disabled"
                case nil: word = "lease lost"
                }
                return Output(webhookId: attempt.endpointID, type: attempt.eventType, messageId: attempt.messageID, attempt: attempt.attempt,
                              statusCode: result.statusCode, error: result.error, outcome: word)
            }
            if json { return try context.printJSON(outputs) }
            var table = Table(columns: ["webhook", "type", "webhook-id", "attempt", "answer", "outcome"])
            for output in outputs {
                var answer = "-"
                if let code = output.statusCode { answer = "HTTP \(code)" }
                if let error = output.error { answer = error }
                table.append([String(output.webhookId), output.type, output.messageId, String(output.attempt), answer, output.outcome])
            }
            context.printTable(table, emptyMessage: "Nothing was due.")
        }
    }
}
