import BelayTestSupport
import Foundation
import Testing

/// The command line reaches the server through the composition root only: the REST handlers
/// (BelayAPI) are not its to use.
@Suite struct ModuleBoundaryTests {
    @Test func theCommandLineDoesNotImportTheRESTHandlers() throws {
        let sources = BelayProcess.packageRoot.appendingPathComponent("Sources/BelayCommandLine")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") }
            #expect(!imports.contains { $0.hasSuffix(" BelayAPI") }, "\(file) imports BelayAPI; use BelayComposition")
        }
    }
}
