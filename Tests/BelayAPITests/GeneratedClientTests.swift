import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// The app's side, built from the served contract: `openapi-python-client` generates a client
/// from the real binary's `/openapi.json` without a single warning, and a member's whole
/// journey (sign in with Apple, profile, a meetup they create and host, join, the host's code,
/// check-in, the reward, its share payload and images, a share, a session logged offline as one
/// batch and its summary, the story redrawn with it, a report, a second member signed in whose meetup
/// the first blocks (gone from their list and search, joining it 403 `not_permitted`) and unblocks,
/// export, deletion) runs through
/// that client alone (`scripts/testing/client-journey.py`). A schema that does not match a real
/// answer fails the journey: the generated code refuses it, or drops a member it lacks.
@Suite(.serialized) struct GeneratedClientTests {
    struct Run {
        let status: Int32
        let standardOutput: String
        let standardError: String
        var printed: String { standardOutput + standardError }
    }

    /// Runs `scripts/testing/<script>` through `scripts/test-python`.
    static func python(_ script: String, _ arguments: [String], timeout: TimeInterval) throws -> Run {
        let root = BelayProcess.packageRoot
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path,
                                             [root.appendingPathComponent("scripts/testing/\(script)").path] + arguments,
                                             timeout: timeout)
        return Run(status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }

    @Test func aClientGeneratedFromTheServedDocumentWithoutWarningsDrivesAMembersWholeJourney() throws {
        let peers = try SignInEndToEndTests().start()
        let (server, provider, workspace) = (peers.server, peers.provider, peers.workspace)

        let served = try server.call("GET", "/openapi.json")
        try #require(served.status == 200)
        let documentPath = workspace.directory.file("openapi.json")
        try Data(served.response.body).write(to: URL(fileURLWithPath: documentPath))
        let package = workspace.directory.file("belay_client")
        // The first run may also make the virtual environment, hence the long timeout.
        let generation = try Self.python("generate-client.py", [documentPath, package], timeout: 600)
        try #require(generation.status == 0, "openapi-python-client failed:\n\(generation.printed)")
        let warnings = generation.printed.split(separator: "\n")
            .filter { $0.localizedCaseInsensitiveContains("warning") || $0.hasPrefix("Cannot") || $0.hasPrefix("Unable") }
        #expect(warnings == [], "openapi-python-client warned:\n\(generation.printed)")
        #expect(FileManager.default.fileExists(atPath: package + "/api/accounts/sign_in_with_apple.py"))

        let nonce = "journey-nonce-\(UInt64.random(in: 0...UInt64.max))"
        let token = try SignInEndToEndTests.appleToken(provider, subject: "000777.journey", nonce: nonce,
                                                       email: "journey@privaterelay.appleid.com")
        // The second member, who makes a meetup and is blocked by the first.
        let secondNonce = "journey-nonce-\(UInt64.random(in: 0...UInt64.max))"
        let secondToken = try SignInEndToEndTests.appleToken(provider, subject: "000778.journey", nonce: secondNonce,
                                                             email: "journey-second@privaterelay.appleid.com")
        let gym = try workspace.cli(["gyms", "add", "--name", "Seoul Forest Gym", "--names", "ko=서울숲 클라이밍",
                                     "--location", "37.5445,127.0557", "--time-zone", "Asia/Seoul"])
        let gymID = try #require(gym["id"]?.intValue, "\(gym)")
        let host = try workspace.user("seoyeon", role: "host")
        // The host's meetup at the gym, which the member's feed shows once they follow the gym.
        let nextWeek = Date().addingTimeInterval(8 * 86_400)
        try workspace.cli(["meetups", "create", "--title", "Seongsu night", "--gym", String(gymID), "--host", "seoyeon", "--capacity", "10",
                           "--starts", RFC3339.string(from: nextWeek, fraction: .none), "--ends", RFC3339.string(from: nextWeek.addingTimeInterval(7_200), fraction: .none)])
        let journey = try Self.python("client-journey.py", [
            "--base-url", "http://127.0.0.1:\(server.port)", "--package", package, "--identity-token", token, "--nonce", nonce,
            "--gym-id", String(gymID), "--gym-location", "37.5445,127.0557", "--host-id", String(host.id),
            "--second-identity-token", secondToken, "--second-nonce", secondNonce,
        ], timeout: 300)
        let summary = try #require(try? JSONValue.parse(Array(journey.standardOutput.utf8)),
                                   "the journey printed no summary:\n\(journey.printed)")
        #expect(journey.status == 0, "the journey failed: \(summary["failure"]?.stringValue ?? "")\n\(journey.standardError)")

        let steps = (summary["steps"]?.arrayValue ?? []).compactMap { step -> String? in
            guard let name = step["step"]?.stringValue, let status = step["status"]?.intValue else { return nil }
            return "\(name) \(status)"
        }
        #expect(steps == [
            "sign_in_apple 201", "get_me 200", "patch_me 200", "create_meetup 201", "join 201", "check_in_code 200",
            "check_in 201", "get_reward 200", "share_payload 200", "sticker 200", "story 200", "holds 200", "hold_artwork 200",
            "share_event 201", "log_ticks 200", "log_ticks_again 200", "logbook_summary 200", "story_redrawn 200", "register_device 201", "list_devices 200", "notification_settings 200",
            "switch_off_reminders 200", "remove_device 204", "create_kiosk 201", "kiosk_state 200", "revoke_kiosk 200",
            "create_listed_meetup 201", "search_meetups 200", "follow_gym 200", "follow_host 200", "list_follows 200", "feed 200",
            "publish_page 200", "meetup_page 200", "unfollow_host 200",
            "report 201", "my_reports 200", "block_unknown 404",
            "sign_in_second 201", "second_creates_meetup 201", "list_before_block 200", "search_before_block 200",
            "block_member 201", "list_blocks 200", "list_after_block 200", "search_after_block 200", "join_blocked 403",
            "unblock_member 200", "list_after_unblock 200", "search_after_unblock 200",
            "export 200", "delete_me 204", "get_me_after_delete 401",
        ])
        // Every member of every answer survived the generated models: the schemas have them all.
        #expect(summary["lost_members"]?.arrayValue == [], "members the schemas lack: \(summary["lost_members"].map { "\($0)" } ?? "")")
        #expect(summary["account_created"]?.boolValue == true)
        if case let .number(distance)? = summary["search_distance_km"] { #expect(distance.doubleValue < 0.01) } else { Issue.record("no search distance") }
        #expect(summary["follows"]?.arrayValue?.compactMap(\.stringValue) == ["gym", "host"])
        // The member's own meetup is not in their feed; the host's at the followed gym is.
        #expect(summary["feed"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] } == [["Seongsu night", "followed_gym"]])
        #expect(summary["page_has_title"]?.boolValue == true)
        #expect(summary["handle"]?.stringValue == "jisoo_climbs")
        #expect(summary["share_event_target"]?.stringValue == "instagram_stories")
        #expect(summary["hardest_send"]?.stringValue == "V4")
        #expect(summary["story_changed"]?.boolValue == true)
        let rewardID = try #require(summary["reward_id"]?.intValue)
        let export = try #require(summary["export"])
        #expect(export["format"]?.stringValue == "belay-member-export/1")
        #expect(export["handle"]?.stringValue == "jisoo_climbs")
        #expect(export["identities"]?.intValue == 1)
        #expect(export["sessions"]?.intValue == 1)
        #expect(export["attendances"]?.intValue == 1)
        #expect(export["rewards"]?.intValue == 1)
        #expect(export["share_events"]?.intValue == 1)
        #expect(export["reports"]?.intValue == 1)
        #expect(export["blocks"]?.intValue == 0)
        #expect(export["reward_ids"]?.arrayValue?.compactMap(\.intValue) == [rewardID])
        for image in ["sticker", "story", "hold_artwork"] {
            #expect((summary["image_bytes"]?[image]?.intValue ?? 0) > 1_000, "\(image) was not downloaded")
        }
    }
}
