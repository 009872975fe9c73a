import BelayTestSupport
import Foundation
import Testing

/// The module graph's rules that the compiler cannot see: the command line reaches the server
/// and the database engines through the composition root only, and the domain, the pipeline and
/// the REST handlers use the engine-neutral storage interface, never an engine.
@Suite struct ModuleBoundaryTests {
    /// The database engines and their C libraries; BelayStorage is also the engine-neutral interface.
    static let engineModules: Set<String> = ["BelayPostgres", "CSQLite", "CSQLiteShim", "CPQ"]

    @Test func theCommandLineDoesNotImportTheRESTHandlers() throws {
        for (file, module) in try Self.imports(ofTarget: "BelayCommandLine") {
            #expect(module != "BelayAPI", "\(file) imports BelayAPI; use BelayComposition")
        }
    }

    @Test func theCommandLineReachesTheDatabaseEnginesOnlyThroughTheCompositionRoot() throws {
        for (file, module) in try Self.imports(ofTarget: "BelayCommandLine") {
            #expect(!Self.engineModules.union(["BelayStorage"]).contains(module),
                    "\(file) imports \(module); ask ClubDatabase in BelayComposition instead")
        }
    }

    @Test(arguments: ["BelayDomain", "BelayPipeline", "BelayAPI"])
    func theDomainPipelineAndHandlersDoNotImportAnEngine(target: String) throws {
        for (file, module) in try Self.imports(ofTarget: target) {
            #expect(!Self.engineModules.contains(module),
                    "\(target)/\(file) imports \(module); use BelayStorage's DatabaseStore, opened by BelayComposition")
        }
    }

    @Test func importLinesAreReadWhateverTheirForm() {
        #expect(Self.importedModule(in: "import BelayPostgres") == "BelayPostgres")
        #expect(Self.importedModule(in: "  @testable import BelayStorage // for the pool") == "BelayStorage")
        #expect(Self.importedModule(in: "@preconcurrency internal import CSQLite") == "CSQLite")
        #expect(Self.importedModule(in: "import struct BelayPostgres.PostgresConnection") == "BelayPostgres")
        #expect(Self.importedModule(in: "/// import BelayPostgres") == nil)
        #expect(Self.importedModule(in: "let imported = importer") == nil)
    }

    /// Every module imported by a Swift file under `Sources/<target>`, with the file's path
    /// inside the target.
    static func imports(ofTarget target: String) throws -> [(file: String, module: String)] {
        let sources = BelayProcess.packageRoot.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no Swift files under \(sources.path)")
        return try files.sorted().flatMap { file in
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            return text.split(whereSeparator: \.isNewline).compactMap { importedModule(in: $0) }.map { (file, $0) }
        }
    }

    /// The module an `import` line names (`BelayPostgres` for `@testable import
    /// struct BelayPostgres.PostgresConnection`), or nil for any other line.
    static func importedModule(in line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) { words = words.dropFirst() }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        let kinds: Set<Substring> = ["class", "struct", "enum", "protocol", "func", "var", "let", "typealias"]
        if let word = words.first, kinds.contains(word) { words = words.dropFirst() }
        guard let path = words.first else { return nil }
        return String(path.prefix { $0 != "." })
    }

    static func importedModule(in line: String) -> String? {
        importedModule(in: line[...])
    }
}
