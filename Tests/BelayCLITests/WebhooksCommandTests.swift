import Foundation
import Testing
import BelayTestSupport

/// `belay webhooks …` on the real binary: registering, listing, the secret on standard
/// output only, refusals with their reasons, and a test event delivered by `deliver` to a
/// receiver that checks it with the Standard Webhooks reference library.
@Suite struct WebhooksCommandTests {
    private func club(settings: String = "") throws -> ClubWorkspace {
        let workspace = try ClubWorkspace(settingsJSON: settings)
        try workspace.succeed("migrate")
        return workspace
    }

    @Test func addListRotateAndRemove() throws {
        let workspace = try club()
        let added = try workspace.run("webhooks", "add", "https://hooks.example.com/belay", "--events", "check_in.created,reward.ready",
                                      "--description", "chat bot")
        #expect(added.status == 0, "\(added)")
        let secret = added.standardOutput.trimmingCharacters(in: .newlines)
        #expect(secret.hasPrefix("whsec_"))
        #expect(added.standardOutput == secret + "\n", "only the secret goes to stdout")
        #expect(added.standardError.contains("Registered webhook 1 for https://hooks.example.com/belay (events: check_in.created,reward.ready)"))

        let listed = try workspace.run("webhooks", "list")
        #expect(listed.status == 0)
        #expect(listed.standardOutput == """
            ID  URL                              EVENTS                         STATUS
            1   https://hooks.example.com/belay  check_in.created,reward.ready  enabled

            """)
        #expect(!listed.standardOutput.contains(secret))
        let json = try #require(try workspace.json("webhooks", "list") as? [[String: Any]])
        #expect(json.first?["description"] as? String == "chat bot")
        #expect(json.first?["secret"] == nil)

        let rotated = try workspace.run("webhooks", "rotate-secret", "1")
        #expect(rotated.status == 0)
        #expect(rotated.standardOutput.hasPrefix("whsec_"))
        #expect(rotated.standardOutput != added.standardOutput)
        #expect(rotated.standardError.contains("the old one keeps signing too for 24 hours"))

        let removed = try workspace.run("webhooks", "remove", "1")
        #expect(removed.status == 0)
        #expect(removed.standardError == "Removed webhook 1.\n")
        let empty = try workspace.run("webhooks", "list")
        #expect(empty.standardError.contains("No webhooks. Register one with `belay webhooks add URL`."))
    }

    @Test func refusalsSayWhatIsWrong() throws {
        let workspace = try club()
        let loopback = try workspace.run("webhooks", "add", "http://127.0.0.1:9000/")
        #expect(loopback.status == 1)
        #expect(loopback.standardOutput == "")
        #expect(loopback.standardError.contains("127.0.0.1 is a loopback address"))
        #expect(loopback.standardError.contains("webhooks.allow_private_addresses is 1"))
        let metadata = try workspace.run("webhooks", "add", "http://169.254.169.254/latest")
        #expect(metadata.status == 1)
        #expect(metadata.standardError.contains("link-local"))
        let badType = try workspace.run("webhooks", "add", "https://hooks.example.com/", "--events", "check_in.made")
        #expect(badType.status == 1)
        #expect(badType.standardError.contains("'check_in.made' is not an event type"))
        #expect(badType.standardError.contains("[invalid_input]"))
        let missing = try workspace.run("webhooks", "test", "42")
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("[webhook_not_found]"))
        let usage = try workspace.run("webhooks", "remove")
        #expect(usage.status == 64)
        #expect(usage.standardError.hasPrefix("Error: "))
    }

    @Test func aTestEventIsDeliveredSignedAndLogged() throws {
        let workspace = try club(settings: #""webhooks": {"allow_private_addresses": 1, "retry_base_seconds": 600}"#)
        let receiver = try WebhookReceiverProcess(arguments: ["--fail-first", "1"], in: workspace.directory)
        let secret = try workspace.succeed("webhooks", "add", receiver.url()).trimmingCharacters(in: .newlines)
        try receiver.useSecret(secret)
        let messageID = try workspace.succeed("webhooks", "test", "1").trimmingCharacters(in: .newlines)
        #expect(messageID.hasPrefix("msg_"))

        let first = try workspace.run("webhooks", "deliver")
        #expect(first.status == 0)
        #expect(first.standardOutput.contains("webhook.test"))
        #expect(first.standardOutput.contains("the endpoint answered HTTP 503"))
        #expect(first.standardOutput.contains("will retry"))
        let pending = try workspace.run("webhooks", "log", "1")
        #expect(pending.standardOutput.contains("pending"))
        #expect(pending.standardError.contains("enabled, failing since"))

        // Nothing is due during the back-off; `enable` makes what waits due now.
        #expect(try workspace.run("webhooks", "deliver").standardError.contains("Nothing was due."))
        try workspace.succeed("webhooks", "enable", "1")
        let delivered = try workspace.succeed("webhooks", "deliver")
        #expect(delivered.contains("delivered"), "\(delivered)")
        #expect(receiver.wait { $0.count == 2 })
        #expect(receiver.requests.map(\.id) == [messageID, messageID])
        #expect(receiver.requests.map(\.verified) == [true, true])
        let log = try #require(try workspace.json("webhooks", "log", "1") as? [[String: Any]])
        #expect(log.first?["status"] as? String == "succeeded")
        #expect(log.first?["attempts"] as? Int == 2)
        #expect(log.first?["message_id"] as? String == messageID)
        let healthy = try workspace.run("webhooks", "log", "1")
        #expect(healthy.standardError.contains(": enabled."))
    }
}
