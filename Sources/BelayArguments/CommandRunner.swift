import BelayCore
import Foundation

/// Parses a command line against a command tree and runs the selected command.
///
/// Rules: options are `--name value` or `--name=value`; flags are `--name`; `--` ends
/// options; `-h`/`--help` anywhere shows help for the deepest command named so far;
/// `--config <file>` is accepted before or after the subcommand; a value that starts with
/// `-` is still taken as an option's value (`--capacity -5` reaches validation).
public struct CommandRunner: Sendable {
    /// The top command (`belay`).
    public let root: any ParsableCommand.Type
    /// Printed by `--version`.
    public let version: String

    /// Turns an error from a lower layer into the text after `Error: ` (several lines may
    /// follow it); nil keeps its `description`.
    public let describe: @Sendable (any Error) -> String?

    /// - Parameters:
    ///   - root: the top command, whose subcommands form the tree.
    ///   - version: the line `--version` prints.
    ///   - describe: the message for an error thrown by a command, or nil for its description.
    public init(root: any ParsableCommand.Type, version: String, describe: @escaping @Sendable (any Error) -> String? = { _ in nil }) {
        self.root = root
        self.version = version
        self.describe = describe
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public func run(arguments: [String], environment: [String: String], currentDirectory: String,
                    output: TextSink = .standardOutput, errorOutput: TextSink = .standardError,
                    now: @escaping @Sendable () -> Date = { Date() }) -> Int32 {
        var path: [any ParsableCommand.Type] = [root]
        var arguments = arguments
        // `belay help meetups create` is `belay meetups create --help`.
        if arguments.first == "help", !root.configuration.subcommands.contains(where: { $0.configuration.name == "help" }) {
            arguments = Array(arguments.dropFirst()) + ["--help"]
        }
        do {
            let invocation = try resolve(arguments, path: &path)
            switch invocation {
            case .help:
                output.write(HelpFormatter.help(for: path) + "\n")
                return ExitCode.success
            case .version:
                output.write(version + "\n")
                return ExitCode.success
            case let .run(instance, configFile):
                try instance.validate()
                let context = CommandContext(environment: environment, currentDirectory: currentDirectory,
                                             configFile: configFile, output: output, errorOutput: errorOutput, now: now)
                try instance.run(context)
                return ExitCode.success
            }
        } catch let error as CommandLineError where error.isUsageError {
            errorOutput.write("Error: \(error.description)\n")
            errorOutput.write("Usage: \(HelpFormatter.usage(for: path))\n")
            errorOutput.write("  See '\(HelpFormatter.commandPath(path)) --help' for more.\n")
            return ExitCode.usage
        } catch {
            errorOutput.write("Error: \(describe(error) ?? String(describing: error))\n")
            return ExitCode.failure
        }
    }

    enum Invocation {
        case help
        case version
        case run(any ParsableCommand, configFile: String?)
    }

    /// Walks subcommands, then parses the leaf's arguments.
    private func resolve(_ arguments: [String], path: inout [any ParsableCommand.Type]) throws -> Invocation {
        var configFile: String?
        var index = 0
        var wantsHelp = false

        // Any --help before `--` wins, once the command it applies to is known.
        let beforeTerminator = arguments.prefix(while: { $0 != "--" })
        wantsHelp = beforeTerminator.contains("--help") || beforeTerminator.contains("-h")

        // Descend through group commands.
        while !path.last!.configuration.subcommands.isEmpty {
            guard index < arguments.count else {
                if wantsHelp { return .help }
                let names = path.last!.configuration.subcommands.map { $0.configuration.name }
                throw CommandLineError.usage("missing subcommand; choose one of: \(names.joined(separator: ", "))")
            }
            let word = arguments[index]
            if word == "--help" || word == "-h" { index += 1; continue }
            if path.count == 1, word == "--version" { return .version }
            if let value = try takeConfig(arguments, &index) { configFile = value; continue }
            if word.hasPrefix("-") {
                if wantsHelp { return .help }
                var known = ["--help", "--config"]
                if path.count == 1 { known.append("--version") }
                var message = "unknown option '\(word)' for '\(HelpFormatter.commandPath(path))'"
                if let near = Suggestion.closest(to: optionName(word), among: known) { message += "; did you mean '\(near)'?" }
                else { message += "; options come after the subcommand" }
                throw CommandLineError.usage(message)
            }
            let subcommands = path.last!.configuration.subcommands
            guard let next = subcommands.first(where: { $0.configuration.name == word }) else {
                if wantsHelp { return .help }
                var message = "unknown command '\(word)'"
                if path.count > 1 { message = "unknown subcommand '\(word)' of '\(HelpFormatter.commandPath(path))'" }
                if let near = Suggestion.closest(to: word, among: subcommands.map { $0.configuration.name }) {
                    message += "; did you mean '\(near)'?"
                } else {
                    message += "; choose one of: " + subcommands.map { $0.configuration.name }.joined(separator: ", ")
                }
                throw CommandLineError.usage(message)
            }
            path.append(next)
            index += 1
        }
        if wantsHelp { return .help }

        // Parse the leaf's own arguments.
        let command = path.last!.init()
        let declared = declarations(of: command)
        let specs = declared.map(\.spec)
        let options = specs.filter { $0.kind != .positional }
        let positionals = specs.filter { $0.kind == .positional }
        var values: [String: [any Sendable]] = [:]
        var positionalIndex = 0
        var onlyPositionals = false

        func store(_ spec: ArgumentSpec, _ word: String) throws {
            guard let value = spec.convert(word) else {
                var message = "\(spec.displayName): '\(word)' is not \(spec.expectation)"
                if let near = Suggestion.closest(to: word, among: spec.allowedValues) { message += "; did you mean '\(near)'?" }
                throw CommandLineError.usage(message)
            }
            let key = spec.key
            if values[key] != nil, !spec.isRepeating {
                throw CommandLineError.usage("\(spec.displayName) is given more than once; give it once")
            }
            values[key, default: []].append(value)
        }

        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" || isNegativeNumber(word) {
                guard positionalIndex < positionals.count else {
                    if let repeating = positionals.last, repeating.isRepeating {
                        try store(repeating, word)
                        continue
                    }
                    let expected = positionals.isEmpty ? "it takes no positional arguments" : "it takes \(positionals.map(\.displayName).joined(separator: " "))"
                    var message = "unexpected argument '\(word)' for '\(HelpFormatter.commandPath(path))'; \(expected)"
                    if positionals.isEmpty, let near = Suggestion.closest(to: word, among: options.map(\.name)) {
                        message += "; did you mean '--\(near) …'?"
                    }
                    throw CommandLineError.usage(message)
                }
                try store(positionals[positionalIndex], word)
                if !positionals[positionalIndex].isRepeating { positionalIndex += 1 }
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            index -= 1
            if let value = try takeConfig(arguments, &index) { configFile = value; continue }
            index += 1
            let name = optionName(word)
            let inlineValue = word.firstIndex(of: "=").map { String(word[word.index(after: $0)...]) }
            guard word.hasPrefix("--"), let spec = options.first(where: { $0.name == name }) else {
                let candidates = options.map { "--" + $0.name } + ["--config", "--help"]
                var message = "unknown option '\(word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word)' for '\(HelpFormatter.commandPath(path))'"
                if let near = Suggestion.closest(to: "--" + name, among: candidates) { message += "; did you mean '\(near)'?" }
                throw CommandLineError.usage(message)
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil { throw CommandLineError.usage("--\(spec.name) is a flag and takes no value") }
                try store(spec, "")
            case .option:
                if let inlineValue {
                    try store(spec, inlineValue)
                } else {
                    guard index < arguments.count else {
                        throw CommandLineError.usage("--\(spec.name) needs a value: --\(spec.name) <\(spec.valueName)>")
                    }
                    try store(spec, arguments[index])
                    index += 1
                }
            case .positional:
                break
            }
        }

        for spec in specs where spec.isRequired && values[spec.key] == nil {
            let form = spec.kind == .positional ? spec.displayName : "--\(spec.name) <\(spec.valueName)>"
            throw CommandLineError.usage("missing \(form): \(spec.help.prefix(1).lowercased() + spec.help.dropFirst())")
        }
        for declaration in declared { declaration.storage.assign(values[declaration.spec.key] ?? []) }
        return .run(command, configFile: configFile)
    }

    /// Consumes `--config <file>` / `--config=<file>` at `index`, returning the file.
    private func takeConfig(_ arguments: [String], _ index: inout Int) throws -> String? {
        let word = arguments[index]
        if word.hasPrefix("--config=") {
            index += 1
            let value = String(word.dropFirst("--config=".count))
            guard !value.isEmpty else { throw CommandLineError.usage("--config needs a file: --config <file>") }
            return value
        }
        guard word == "--config" else { return nil }
        guard index + 1 < arguments.count else { throw CommandLineError.usage("--config needs a file: --config <file>") }
        index += 2
        return arguments[index - 1]
    }

    private func optionName(_ word: String) -> String {
        var name = word.drop(while: { $0 == "-" })
        if let equals = name.firstIndex(of: "=") { name = name[..<equals] }
        return String(name)
    }

    private func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && Double(word) != nil
    }
}
