import BelayTestSupport
import Foundation
import Testing

/// The module graph's rules that the compiler cannot see: the command line reaches the server
/// and the database engines through the composition root only, and the domain, the pipeline and
/// the REST handlers use the engine-neutral storage interface, never an engine.
@Suite struct ModuleBoundaryTests {
    /// The database engines and their C libraries (BelayStorage is the engine-neutral interface).
    static let engineModules: Set<String> = ["BelaySQLite", "BelayPostgres", "CSQLite", "CSQLiteShim", "CPQ"]

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

    /// Not an import alone: no code (comments aside) of these modules names an engine, so none
    /// can branch on which one runs; what differs is asked of the connection's `SQLDialect`.
    @Test(arguments: ["BelayDomain", "BelayPipeline", "BelayAPI"])
    func theDomainPipelineAndHandlersNeverNameAnEngine(target: String) throws {
        for (file, line, code) in try Self.codeLines(ofTarget: target) where Self.namesAnEngine(code) {
            Issue.record("\(target)/\(file):\(line) names an engine (`\(code.trimmingCharacters(in: .whitespaces))`); ask db.dialect for what differs")
        }
    }

    @Test func engineNamesAreFoundInCodeButNotInComments() {
        #expect(Self.namesAnEngine("if db.engine == .postgresql {"))
        #expect(Self.namesAnEngine("let pool = try SQLitePool(path: path)"))
        #expect(Self.namesAnEngine("    store as? PostgresStore"))
        #expect(Self.namesAnEngine("case .sqlite: break"))
        #expect(!Self.namesAnEngine("let claim = db.dialect.skippingLockedRows(of: \"render_jobs\")"))
        #expect(Self.codeLines(in: "/// SQLite keeps one writer\nlet x = 1 // on PostgreSQL too").map(\.code) == ["", "let x = 1 "])
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

    /// Each line of each Swift file under `Sources/<target>` with its comments taken out.
    static func codeLines(ofTarget target: String) throws -> [(file: String, line: Int, code: String)] {
        let sources = BelayProcess.packageRoot.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        return try files.sorted().flatMap { file in
            codeLines(in: try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)).map { (file, $0.line, $0.code) }
        }
    }

    /// The lines of `text`, numbered from 1, each without what follows a `//`.
    static func codeLines(in text: String) -> [(line: Int, code: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { number, line in
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            return (number + 1, String(code))
        }
    }

    /// True when `code` names an engine: one of their types, or a case naming one.
    static func namesAnEngine(_ code: String) -> Bool {
        code.range(of: #"SQLite|Postgres|\.postgresql\b|\.sqlite\b|DatabaseEngine"#, options: .regularExpression) != nil
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
