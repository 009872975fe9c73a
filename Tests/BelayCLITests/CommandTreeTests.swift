import Foundation
import Testing
import BelayArguments
import BelayTestSupport
@testable import BelayCommandLine

/// One command of `belay`'s tree, with the words that select it.
private struct CommandPath: CustomStringConvertible, Sendable {
    let words: [String]
    let command: any ParsableCommand.Type

    var description: String { (["belay"] + words).joined(separator: " ") }

    /// Every command and group under `command`, `command` first.
    static func all(under command: any ParsableCommand.Type = BelayRootCommand.self, words: [String] = []) -> [CommandPath] {
        [CommandPath(words: words, command: command)] + command.configuration.subcommands.flatMap {
            all(under: $0, words: words + [$0.configuration.name])
        }
    }
}

/// Walks every command of `belay`: what a command reads from the command line is declared
/// once, parsed, and documented in its `--help`; every command a help text names exists.
@Suite struct CommandTreeTests {
    private static let paths = CommandPath.all()

    @Test func everyStoredPropertyOfACommandIsADeclaration() {
        for path in Self.paths {
            for child in Mirror(reflecting: path.command.init()).children {
                let isDeclared = child.value is any ArgumentDeclaration || child.value is any ArgumentGroup
                #expect(isDeclared, "\(path) stores \(child.label ?? "?"), which the command line does not fill")
            }
        }
    }

    @Test func declaredNamesAreUniqueAndDocumented() {
        for path in Self.paths {
            let specs = path.command.declaredArguments
            let names = specs.map(\.key)
            #expect(Set(names).count == names.count, "\(path) declares a name twice: \(names)")
            for spec in specs {
                #expect(!["config", "help", "version"].contains(spec.name) || spec.kind == .positional, "\(path) redeclares --\(spec.name)")
                #expect(spec.help.count > 3 && spec.help.hasSuffix(".") || spec.help.hasSuffix(")"), "\(path) \(spec.displayName) has no help sentence: '\(spec.help)'")
            }
        }
    }

    @Test func everyDeclarationIsListedInItsCommandsHelp() throws {
        let workspace = try ClubWorkspace()
        for path in Self.paths {
            let help = try workspace.run(path.words + ["--help"])
            #expect(help.status == 0, "\(path) --help: \(help)")
            let text = help.standardOutput.replacingOccurrences(of: "\n ", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for spec in path.command.declaredArguments {
                let row = spec.kind == .option ? "--\(spec.name) <\(spec.valueName)>" : spec.kind == .flag ? "--\(spec.name)" : "<\(spec.valueName)>"
                let firstWords = spec.help.split(separator: " ").prefix(4).joined(separator: " ")
                #expect(text.contains("\(row) \(firstWords)"), "\(path) --help does not list \(row) with its help")
                #expect(help.standardOutput.contains("USAGE: ") && text.contains(spec.usage), "\(path)'s usage line lacks \(spec.usage)")
            }
        }
    }

    @Test func everyCommandAHelpTextNamesExists() throws {
        let workspace = try ClubWorkspace()
        var named: [(String, String)] = []
        for path in Self.paths {
            let help = try workspace.run(path.words + ["--help"])
            let text = help.standardOutput.replacingOccurrences(of: "\\\n", with: " ")
            var rest = Substring(text)
            while let range = rest.range(of: "belay ") {
                let before = rest[..<range.lowerBound].last
                rest = rest[range.upperBound...]
                if let before, before.isLetter || before == "/" || before == "." || before == "-" { continue }
                let words = rest.prefix(while: { $0 != "\n" && $0 != "`" && $0 != "," && $0 != ";" && $0 != ")" && $0 != "'" })
                    .split(separator: " ").map(String.init)
                named.append((path.description, words.joined(separator: " ")))
                var command: any ParsableCommand.Type = BelayRootCommand.self
                for word in words {
                    let subcommands = command.configuration.subcommands
                    if subcommands.isEmpty { break }
                    guard word.first?.isLetter == true, word.first?.isLowercase == true,
                          word.allSatisfy({ $0.isLetter || $0 == "-" }) else { break }
                    guard let next = subcommands.first(where: { $0.configuration.name == word }) else {
                        Issue.record("\(path) --help names `belay \(words.joined(separator: " "))`, but '\(word)' is not a subcommand of it")
                        break
                    }
                    command = next
                }
            }
        }
        #expect(named.count > 10, "the walk found too few commands named in help texts: \(named)")
    }
}
