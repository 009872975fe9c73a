import BelayCore
import BelayAPI
import BelayHTTP
import BelayPipeline
import BelayRender
import BelayTestSupport
import Foundation
import Testing

/// The sticker proves itself: its baked Open Badges 3.0 credential verifies with an
/// independent verifier (openbadgeslib from PyPI, through `scripts/badge-verifier`) and with
/// `belay badges verify`; a revoked badge and a tampered one do not.
@Suite(.serialized) struct BadgeTests {
    /// The independent verifier's verdict on a sticker file.
    func outsideVerdict(_ file: String, server: BelayServerProcess) throws -> JSONValue {
        let script = BelayProcess.packageRoot.appendingPathComponent("scripts/badge-verifier").path
        let run = try ExternalTool.output(script, [file, "http://127.0.0.1:8080", "--served-at", "http://127.0.0.1:\(server.port)"],
                                          timeout: 300)
        let line = run.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try? JSONValue.parse(Array(line.utf8)), "verifier printed \(run.standardOutput) \(run.standardError.suffix(1_000))")
    }

    func cli(_ workspace: ClubWorkspace, _ arguments: [String]) throws -> BelayProcessResult {
        try BelayProcess.run(arguments + ["--config", workspace.configPath], in: workspace.directory.path)
    }

    @Test func theStickerVerifiesOutsideBelayUntilItIsRevokedAndNotWhenTampered() throws {
        let workspace = try ClubWorkspace.served()
        let (server, _, sticker, _) = try SharePageBrowserTests.sharedReward(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let token = try #require(PNGTextChunk.text(keyword: "openbadgecredential", in: sticker), "the sticker carries no iTXt badge")
        #expect(token.split(separator: ".").count == 3)
        let file = workspace.directory.file("sticker.png")
        try Data(sticker).write(to: URL(fileURLWithPath: file))

        // The member cannot be found from the sticker: their id, tried with the printed salt, is not it.
        let claimBytes = try #require(Data(base64Encoded: ResponseCacheTests.padded(String(token.split(separator: ".")[1]))))
        let claims = try JSONValue.parse(Array(claimBytes))
        let identifier = try #require(claims["credentialSubject"]?["identifier"]?.arrayValue?.first)
        let salt = try #require(identifier["salt"]?.stringValue)
        let identityHash = try #require(identifier["identityHash"]?.stringValue)
        let guessed = (Int64(1)...100_000).filter { id in
            ["belay-member:\(id)", "\(id)"].contains { "sha256$" + ContentDigest.hex(of: $0 + salt) == identityHash }
        }
        #expect(guessed.isEmpty, "the badge's identity hash gives away member \(guessed)")

        let valid = try outsideVerdict(file, server: server)
        #expect(valid["valid"]?.boolValue == true, "\(valid)")
        #expect(valid["achievement"]?.stringValue == "Gold Jug")
        #expect(valid["issuer"]?.stringValue == "Belay Climbing Club")
        let mine = try cli(workspace, ["badges", "verify", file])
        #expect(mine.status == 0, "\(mine)")
        #expect(mine.standardOutput.hasPrefix("valid: Gold Jug, earned by Minji of Belay Climbing Club\n"))
        #expect(mine.standardOutput.contains("Checked in at 더클라임 강남점 on "))

        // Tampered: the hold's name changed and the token baked in again, signature kept.
        let parts = token.split(separator: ".").map(String.init)
        let payload = String(decoding: try #require(Data(base64Encoded: ResponseCacheTests.padded(parts[1]))), as: UTF8.self)
            .replacingOccurrences(of: "Gold Jug", with: "Epic Jug")
        let forged = parts[0] + "." + Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") + "." + parts[2]
        let tamperedFile = workspace.directory.file("tampered.png")
        try Data(try PNGTextChunk.inserting(keyword: "openbadgecredential", text: forged, into: sticker)).write(to: URL(fileURLWithPath: tamperedFile))
        let tampered = try outsideVerdict(tamperedFile, server: server)
        #expect(tampered["valid"]?.boolValue == false)
        #expect(tampered["reason"]?.stringValue?.contains("ignature") == true, "\(tampered)")
        let mineTampered = try cli(workspace, ["badges", "verify", tamperedFile])
        #expect(mineTampered.status == 1)
        #expect(mineTampered.standardError.contains("the signature does not match"))

        // A rotated key leaves earlier badges verifiable.
        let rotated = try cli(workspace, ["badges", "rotate-key"])
        #expect(rotated.status == 0)
        #expect(rotated.standardError.contains("stays published for earlier badges"))
        #expect(try outsideVerdict(file, server: server)["valid"]?.boolValue == true)

        // Revoked: the check-in is undone; the status list says so, to Belay and to others.
        #expect(try cli(workspace, ["attendees", "undo-check-in", "1", "minji"]).status == 0)
        // A revocation from the CLI (another process) shows once the server's cached list
        // expires: within the response cache's lifetime, a second.
        var revoked = try outsideVerdict(file, server: server)
        let deadline = Date().addingTimeInterval(10)
        while revoked["valid"]?.boolValue == true && Date() < deadline {
            usleep(250_000)
            revoked = try outsideVerdict(file, server: server)
        }
        #expect(revoked["valid"]?.boolValue == false)
        #expect(revoked["reason"]?.stringValue?.contains("revocation") == true, "\(revoked)")
        let mineRevoked = try cli(workspace, ["badges", "verify", file])
        #expect(mineRevoked.status == 1)
        #expect(mineRevoked.standardError.contains("revoked"))
    }

    @Test func aFileWithoutABadgeIsToldSo() throws {
        let workspace = try ClubWorkspace.served()
        let plain = BelayProcess.packageRoot.appendingPathComponent("Assets/holds/jug-gold.png").path
        _ = try BelayProcess.run(["migrate", "--config", workspace.configPath], in: workspace.directory.path)
        let result = try cli(workspace, ["badges", "verify", plain])
        #expect(result.status == 1)
        #expect(result.standardError.contains("carries no badge"))
    }
}
