import Foundation
import Testing
import BelayTestSupport

/// The behaviour every command shares: help, version, usage errors and exit codes.
@Suite struct CommandLineFrameworkTests {
    @Test func versionPrintsToStandardOutput() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run("--version")
        #expect(result.status == 0)
        #expect(result.standardOutput == "belay 0.1.0\n")
        #expect(result.standardError == "")
    }

    @Test func helpListsCommandsAndExitsZero() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run("--help")
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("OVERVIEW: "))
        for command in ["users", "meetups", "attendees", "rewards", "holds", "stats", "migrate", "db", "config"] { #expect(result.standardOutput.contains("\n  \(command) ")) }
        #expect(result.standardError == "")
    }

    @Test(arguments: [["db", "--help"], ["db", "backup", "--help"], ["db", "backup", "-h"], ["migrate", "--help"], ["config", "show", "--help"], ["db", "backup", "x", "--bogus", "--help"]])
    func everyCommandHasHelp(arguments: [String]) throws {
        let workspace = try ClubWorkspace()
        let result = try BelayProcess.run(arguments, in: workspace.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("USAGE: belay "))
        #expect(result.standardOutput.contains("-h, --help"))
    }

    @Test func helpCommandShowsTheNamedCommandsHelp() throws {
        let workspace = try ClubWorkspace()
        let viaHelp = try workspace.run("help", "db", "backup")
        #expect(viaHelp.status == 0)
        #expect(viaHelp.standardOutput == (try workspace.run("db", "backup", "--help")).standardOutput)
        #expect(viaHelp.standardOutput.hasPrefix("OVERVIEW: Copy the database to FILE"))
    }

    @Test func noCommandIsAUsageError() throws {
        let result = try ClubWorkspace().run()
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("Error: missing subcommand; choose one of: "))
        #expect(result.standardError.contains("\nUsage: belay [--config <file>] <subcommand>\n"))
    }

    @Test func mistypedCommandGetsASuggestion() throws {
        let result = try ClubWorkspace().run("mirgate")
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("Error: unknown command 'mirgate'; did you mean 'migrate'?\nUsage: belay "))
    }

    @Test func mistypedSubcommandGetsASuggestion() throws {
        let result = try ClubWorkspace().run("db", "bakcup", "x.sqlite3")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: unknown subcommand 'bakcup' of 'belay db'; did you mean 'backup'?\nUsage: belay db <subcommand>\n"))
    }

    @Test func mistypedOptionGetsASuggestion() throws {
        let result = try ClubWorkspace().run("migrate", "--dry-rn")
        #expect(result.status == 64)
        #expect(result.standardError == """
            Error: unknown option '--dry-rn' for 'belay migrate'; did you mean '--dry-run'?
            Usage: belay migrate [--dry-run] [--json]
              See 'belay migrate --help' for more.

            """)
    }

    @Test func missingPositionalIsNamed() throws {
        let result = try ClubWorkspace().run("db", "backup")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: missing <file>: where to write the copy"))
        #expect(result.standardError.contains("Usage: belay db backup <file> [--force]"))
    }

    @Test func extraArgumentsAndFlagValuesAreRefused() throws {
        let workspace = try ClubWorkspace()
        let extra = try workspace.run("db", "backup", "a", "b")
        #expect(extra.status == 64)
        #expect(extra.standardError.hasPrefix("Error: unexpected argument 'b' for 'belay db backup'"))
        let flagValue = try workspace.run("migrate", "--dry-run=yes")
        #expect(flagValue.status == 64)
        #expect(flagValue.standardError.hasPrefix("Error: --dry-run is a flag and takes no value"))
        let twice = try workspace.run("migrate", "--json", "--json")
        #expect(twice.status == 64)
        #expect(twice.standardError.hasPrefix("Error: --json is given more than once"))
    }

    @Test func configOptionIsAcceptedBeforeAndAfterTheSubcommand() throws {
        let workspace = try ClubWorkspace()
        try #"{"server": {"port": 9123}}"#.write(toFile: workspace.directory.file("other.json"), atomically: true, encoding: .utf8)
        for arguments in [["--config", "other.json", "config", "show"], ["config", "show", "--config", "other.json"], ["config", "--config=other.json", "show"]] {
            let result = try BelayProcess.run(arguments, in: workspace.path)
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("\"port\": 9123"), "\(arguments)")
        }
        let missingValue = try workspace.run("config", "show", "--config")
        #expect(missingValue.status == 64)
        #expect(missingValue.standardError.hasPrefix("Error: --config needs a file"))
    }
}
