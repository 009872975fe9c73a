import Foundation
import BelayArguments
import BelayComposition
import BelayCore
import BelayDomain
import BelayPush
import BelayRepresentations

/// `belay push test|devices`: a member's phones, and a test notice to them.
struct PushCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "push", abstract: "See a member's registered phones and send them a test notice.",
            discussion: "Phones register themselves from the app (POST /v1/me/devices). Notices go through APNs (push.apns.*) and FCM (push.fcm.*).",
            subcommands: [Test.self, Devices.self])
    }

    /// `belay push test`.
    struct Test: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "test", abstract: "Send a test notice to every phone of a member now, and print each push service's answer.",
                                 discussion: "Example: belay push test jisoo")
        }

        @Argument("handle", help: "The member's handle.") var handle: String
        @Flag(.json) var json: Bool

        struct Output: Encodable { var device: Int64, platform: String, status: Int?, answer: String, outcome: String }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            let devices = try services.domain.push.devices(userID: user.id)
            guard !devices.isEmpty else {
                throw CommandLineError.failure("\(user.handle) has no registered phone; the app registers one after sign-in (POST /v1/me/devices)")
            }
            let worker: PushDeliveryWorker?
            do {
                worker = try PushDeliveryWorker.make(configuration: services.configuration, domain: services.domain,
                                                     registry: MetricsRegistry(), log: { line in context.note(line) })
            } catch let error as ApplicationError {
                throw CommandLineError.failure(error.description)
            }
            guard let worker else {
                throw CommandLineError.failure("no push service is configured: set push.apns.key_file, key_id and team_id for iPhones, or push.fcm.service_account_file for Android, in config.json")
            }
            let outputs = try worker.sendTest(userID: user.id).map { delivery, outcome -> Output in
                switch outcome {
                case let .sent(status): Output(device: delivery.deviceID, platform: delivery.platform.rawValue, status: status, answer: "HTTP \(status)", outcome: "sent")
                case let .retry(_, status, error): Output(device: delivery.deviceID, platform: delivery.platform.rawValue, status: status, answer: error, outcome: "will retry")
                case let .removeDevice(status, reason, _): Output(device: delivery.deviceID, platform: delivery.platform.rawValue, status: status, answer: reason, outcome: "device removed")
                case let .failed(status, error): Output(device: delivery.deviceID, platform: delivery.platform.rawValue, status: status, answer: error, outcome: "failed")
                case .dropped: Output(device: delivery.deviceID, platform: delivery.platform.rawValue, status: nil, answer: "-", outcome: "dropped")
                }
            }
            if json { return try context.printJSON(outputs) }
            var table = Table(columns: ["device", "platform", "answer", "outcome"])
            for output in outputs { table.append([String(output.device), output.platform, output.answer, output.outcome]) }
            context.printTable(table, emptyMessage: "Nothing was sent: no phone of \(user.handle) is on a platform with a push service configured.")
            if outputs.contains(where: { $0.outcome != "sent" }) { throw CommandLineError.failure("not every phone took the test notice (see above)") }
        }
    }

    /// `belay push devices`.
    struct Devices: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "devices", abstract: "List the phones a member registered for notices.")
        }

        @Argument("handle", help: "The member's handle.") var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            let devices = try services.domain.push.devices(userID: user.id)
            if json {
                var output = JSONOutput()
                output.object { output in
                    output.key("items")
                    output.array(devices) { output, device in DeviceBody(device: device, isCurrentSession: false).write(to: &output) }
                }
                context.print(String(decoding: output.bytes, as: UTF8.self))
                return
            }
            var table = Table(columns: ["id", "platform", "app", "environment", "language", "token", "registered"])
            for device in devices {
                table.append([String(device.id), device.platform.rawValue, device.appID, device.environment.rawValue, device.locale?.rawValue ?? "-",
                              String(device.token.prefix(12)) + (device.token.count > 12 ? "…" : ""),
                              TimeFormatting.local(device.updatedAt, in: services.configuration.club.zone)])
            }
            context.printTable(table, emptyMessage: "\(user.handle) has no registered phone; the app registers one after sign-in.")
        }
    }
}
