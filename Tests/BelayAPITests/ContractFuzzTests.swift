import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// Schemathesis (PyPI) generates requests for every operation from the real binary's
/// `/openapi.json` and holds the answers to it: no request the document allows is refused
/// as malformed ("Schema-valid request rejected", through the positive-data check in
/// `scripts/testing/belay_schemathesis_hooks.py`, which lets through only the refusals listed
/// there that no schema can state), and no answer differs from its schema ("Response
/// violates schema"). The run is seeded, so a failure can be replayed.
@Suite(.serialized) struct ContractFuzzTests {
    static let seed = "20261203"

    @Test func generatedRequestsAreAcceptedAndEveryAnswerMatchesTheDocument() throws {
        // The limits and the address rule are settings, not shapes: a club could set them so.
        let workspace = try ClubWorkspace.served(settings: [
            "rate_limits": ["auth_per_address_per_minute": 1_000_000, "auth_per_email_per_hour": 1_000_000,
                            "writes_per_member_per_minute": 1_000_000, "share_events_per_member_per_minute": 1_000_000,
                            "public_per_address_per_minute": 1_000_000],
            "webhooks": ["allow_private_addresses": 1],
        ])
        let server = try workspace.serve()
        let admin = try workspace.user("admin", role: "admin")
        let root = BelayProcess.packageRoot
        // Run from the workspace: schemathesis keeps a cache (`.schemathesis/`) in its working
        // directory, which must not land in the checkout.
        let run = try ExternalTool.output("/usr/bin/env", [
            "--chdir=" + workspace.directory.path,
            "PYTHONPATH=" + root.appendingPathComponent("scripts/testing").path,
            "SCHEMATHESIS_HOOKS=belay_schemathesis_hooks",
            root.appendingPathComponent("scripts/test-python").path, "-m", "schemathesis.cli", "run",
            "http://127.0.0.1:\(server.port)/openapi.json",
            "--header", "Authorization: Bearer \(admin.token)",
            "--checks", "response_schema_conformance,schema_valid_request_accepted",
            "--phases", "examples,fuzzing", "--max-examples", "40", "--workers", "2", "--seed", Self.seed,
            "--no-color",
        ], timeout: 900)
        let printed = run.standardOutput + run.standardError
        #expect(run.status == 0, "schemathesis found failures (seed \(Self.seed)):\n\(printed.suffix(8_000))")
        #expect(!printed.contains("Schema-valid request rejected"))
        #expect(!printed.contains("Response violates schema"))
        // Every operation schemathesis read from the document was tested.
        let selected = printed.firstMatch(of: /Selected: (\d+)\/(\d+)/)
        let tested = printed.firstMatch(of: /Tested: (\d+)/)
        #expect(selected != nil && selected?.1 == selected?.2 && tested?.1 == selected?.2, "\(printed.suffix(3_000))")
        #expect(try server.call("GET", "/healthz").status == 200, "still serving after the run")
        _ = server.terminate()
    }
}
