import Foundation
import Testing
@testable import BelayArguments

/// The parser and runner in-process, on a small command tree of their own.
private struct Greet: ParsableCommand {
    enum Tone: String, ExpressibleByArgument, CaseIterable { case warm, dry }

    static let configuration = CommandConfiguration(name: "greet", abstract: "Greet someone.")

    @Argument("name", help: "Who to greet.") var name: String
    @Option("times", valueName: "n", default: 1, help: "How often.") var times: Int
    @OptionalOption("tone", valueName: "tone", help: "How.") var tone: Tone?
    @RepeatedOption("tag", valueName: "text", help: "Labels.") var tags: [String]
    @Flag("shout", help: "Loudly.") var shout: Bool

    func validate() throws {
        guard times >= 1 else { throw CommandLineError.usage("--times must be at least 1") }
    }

    func run(_ context: CommandContext) throws {
        if name == "nobody" { throw CommandLineError.failure("nobody is there; greet someone else") }
        context.print("\(name)|\(times)|\(tone?.rawValue ?? "-")|\(tags.joined(separator: ","))|\(shout)|\($times.wasGiven)|\(context.configFile ?? "-")")
        context.note("greeted")
    }
}

private struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(name: "tool", abstract: "A test tool.", subcommands: [Greet.self])
}

private func run(_ arguments: String...) -> (status: Int32, output: String, errors: String) {
    runCommandLine(root: Tool.self, version: "tool 1.0", arguments)
}

@Suite struct CommandRunnerTests {
    @Test func parsesTypedValuesInAnyOrder() {
        let result = run("greet", "--times=3", "ana", "--tone", "warm", "--tag", "a", "--shout", "--tag", "b")
        #expect(result.status == 0)
        #expect(result.output == "ana|3|warm|a,b|true|true|-\n")
        #expect(result.errors == "greeted\n")
    }

    @Test func defaultsApplyAndAreNotCountedAsGiven() {
        #expect(run("greet", "ana").output == "ana|1|-||false|false|-\n")
    }

    @Test func doubleDashEndsOptionsAndNegativeNumbersAreValues() {
        #expect(run("greet", "--", "--ana").output == "--ana|1|-||false|false|-\n")
        let negative = run("greet", "ana", "--times", "-2")
        #expect(negative.status == 64)
        #expect(negative.errors.hasPrefix("Error: --times must be at least 1\nUsage: tool greet <name> [--times <n>]"))
    }

    @Test func globalConfigOptionIsTakenAnywhere() {
        #expect(run("--config", "a.json", "greet", "ana").output.hasSuffix("|a.json\n"))
        #expect(run("greet", "ana", "--config=b.json").output.hasSuffix("|b.json\n"))
    }

    @Test func badValuesAreUsageErrorsWithSuggestions() {
        let tone = run("greet", "ana", "--tone", "wram")
        #expect(tone.status == 64)
        #expect(tone.errors.hasPrefix("Error: --tone: 'wram' is not one of warm, dry; did you mean 'warm'?\n"))
        let times = run("greet", "ana", "--times", "two")
        #expect(times.errors.hasPrefix("Error: --times: 'two' is not an integer\n"))
        let missingValue = run("greet", "ana", "--times")
        #expect(missingValue.errors.hasPrefix("Error: --times needs a value: --times <n>\n"))
        let option = run("greet", "ana", "--shuot")
        #expect(option.errors.hasPrefix("Error: unknown option '--shuot' for 'tool greet'; did you mean '--shout'?\n"))
        let command = run("gret", "ana")
        #expect(command.errors.hasPrefix("Error: unknown command 'gret'; did you mean 'greet'?\n"))
        let unrelated = run("zzzzzz")
        #expect(unrelated.errors.hasPrefix("Error: unknown command 'zzzzzz'; choose one of: greet\n"))
    }

    @Test func failuresExitOneWithoutUsage() {
        let result = run("greet", "nobody")
        #expect(result.status == 1)
        #expect(result.errors == "Error: nobody is there; greet someone else\n")
        #expect(result.output == "")
    }

    @Test func helpAndVersion() {
        let help = run("greet", "--help")
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: tool greet <name> [--times <n>] [--tone <tone>] [--tag <text> ...] [--shout]"))
        #expect(help.output.contains("--tone <tone>    How. One of: warm, dry."))
        #expect(help.output.contains("--times <n>      How often. (default: 1)"))
        #expect(run("help", "greet").output == help.output)
        #expect(run("--version").output == "tool 1.0\n")
        let versionOnLeaf = run("greet", "--version")
        #expect(versionOnLeaf.status == 64)
    }
}
