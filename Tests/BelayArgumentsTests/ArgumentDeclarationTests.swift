import Foundation
import Testing
import BelayArguments

/// Declarations shared through a group and a template, as `belay render` and `belay meetups` use them.
private struct SharedInputs: ArgumentGroup {
    @Option("size", valueName: "n", default: 2, help: "How big.") var size: Int
    @OptionalOption("colour", valueName: "name", help: "Which colour.") var colour: String?
}

private enum Shared {
    static let id = Argument<Int64>("item-id", help: "The item.")
}

private struct Paint: ParsableCommand {
    static let configuration = CommandConfiguration(name: "paint", abstract: "Paint an item.")

    @Argument(Shared.id) var id: Int64
    let inputs = SharedInputs()
    @RepeatedArgument("extra", required: false, help: "More items.") var extras: [String]
    @Flag("dry-run", help: "Only say what would happen.") var dryRun: Bool

    func run(_ context: CommandContext) throws {
        context.print("\(id)|\(inputs.size)|\(inputs.colour ?? "-")|\(extras.joined(separator: ","))|\(dryRun)|\(inputs.$size.wasGiven)")
    }
}

private struct Box: ParsableCommand {
    static let configuration = CommandConfiguration(name: "box", abstract: "A box of tools.", subcommands: [Paint.self])
}

private func run(_ arguments: String...) -> (status: Int32, output: String, errors: String) {
    runCommandLine(root: Box.self, version: "box 1", arguments)
}

@Suite struct ArgumentDeclarationTests {
    @Test func declarationsAreFoundInOrderIncludingGroups() {
        #expect(Paint.declaredArguments.map(\.displayName) == ["<item-id>", "--size", "--colour", "<extra>", "--dry-run"])
        #expect(Box.declaredArguments.isEmpty)
    }

    @Test func groupsAndTemplatesAreParsedAndRead() {
        let result = run("paint", "7", "a", "b", "--colour", "red", "--dry-run")
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "7|2|red|a,b|true|false\n")
        #expect(run("paint", "8", "--size=5").output == "8|5|-||false|true\n")
    }

    @Test func eachRunGetsFreshValues() {
        #expect(run("paint", "1", "--size", "9").output == "1|9|-||false|true\n")
        #expect(run("paint", "2").output == "2|2|-||false|false\n")
    }

    @Test func groupDeclarationsAppearInHelpAndUsage() {
        let help = run("paint", "--help").output
        #expect(help.contains("USAGE: box paint <item-id> [<extra> ...] [--size <n>] [--colour <name>] [--dry-run]"), "\(help)")
        #expect(help.contains("--size <n>"))
        #expect(help.contains("How big. (default: 2)"))
        let missing = run("paint")
        #expect(missing.status == 64)
        #expect(missing.errors.hasPrefix("Error: missing <item-id>: the item.\n"))
    }

    @Test func aTemplateSharesItsSpecButNotItsValues() {
        let copy = Argument(Shared.id)
        #expect(copy.spec.name == Shared.id.spec.name)
        #expect(copy.storage !== Shared.id.storage)
    }
}
