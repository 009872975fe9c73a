import BelayTestSupport
import Foundation
import Testing

/// The README's two walkthroughs, run as written with bash against a real `belay serve`, in
/// both orders on one server each: the command line's (`<!-- walkthrough: cli -->`) and the
/// app's flow in `curl` (`<!-- walkthrough: app -->`). Only what the README says to change is
/// changed: `BASE` names the test's server, and `.build/release/belay` is this build.
@Suite(.serialized) struct ReadmeWalkthroughTests {
    /// The shell block after `<!-- walkthrough: name -->` in README.md.
    static func block(_ name: String) throws -> String {
        let readme = try String(contentsOf: BelayProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let marker = readme.range(of: "<!-- walkthrough: \(name) -->\n```sh\n"),
              let end = readme.range(of: "\n```\n", range: marker.upperBound..<readme.endIndex) else {
            throw Failure(description: "README.md has no ```sh block after <!-- walkthrough: \(name) -->")
        }
        return String(readme[marker.upperBound..<end.lowerBound])
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with bash in `workspace` (aliases expanded, as in the terminal the README
    /// speaks to; stopping at the first command that fails, pipes included).
    static func run(_ script: String, in workspace: ClubWorkspace, base: String) throws -> Ran {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-O", "expand_aliases", "-e", "-o", "pipefail", "-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        process.environment = BelayProcess.childEnvironment(["BASE": base])
        let collected = try ChildOutputFiles.run(process, input: nil, timeout: 180, stopSignal: SIGKILL)
        return Ran(status: process.terminationStatus, standardOutput: collected.standardOutput, standardError: collected.standardError)
    }

    /// What a walkthrough printed, and how it ended.
    struct Ran: CustomStringConvertible {
        let status: Int32
        let standardOutput: String
        let standardError: String
        var description: String { "exit \(status)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)" }
    }

    /// A served club whose folder has `.build/release/belay`, as after `make run`.
    static func club() throws -> (ClubWorkspace, BelayServerProcess) {
        let workspace = try ClubWorkspace.served()
        let release = workspace.directory.file(".build/release")
        try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: release + "/belay", withDestinationPath: BelayProcess.executableURL.path)
        return (workspace, try workspace.serve())
    }

    @Test(arguments: [["cli", "app"], ["app", "cli"]])
    func theWalkthroughsRunAsWrittenInEitherOrder(_ order: [String]) throws {
        let (workspace, server) = try Self.club()
        defer { _ = server.terminate() }
        for name in order {
            let result = try Self.run(try Self.block(name), in: workspace, base: "http://127.0.0.1:\(server.port)")
            #expect(result.status == 0, "the \(name) walkthrough after \(order.prefix { $0 != name }): \(result)")
            switch name {
            case "app":
                #expect(result.standardOutput.contains("\"going\""), "\(result.standardOutput)")
                #expect(result.standardOutput.contains("sticker.png: PNG image data, 720 x 960"), "\(result.standardOutput)")
                #expect(result.standardOutput.contains("http://127.0.0.1:\(server.port)/s/")
                        || result.standardOutput.contains("/s/"), "the share page's address: \(result.standardOutput)")
                #expect(result.standardOutput.contains("\"target\":\"share_sheet\""), "Ari's numbers: \(result.standardOutput)")
            default:
                #expect(result.standardOutput.contains("hana") || result.standardError.contains("hana"), "\(result)")
            }
        }
    }
}
