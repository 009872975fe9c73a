/// Builds `--help` text and usage lines from command configurations.
enum HelpFormatter {
    /// `belay meetups create`.
    static func commandPath(_ path: [any ParsableCommand.Type]) -> String {
        path.map { $0.configuration.name }.joined(separator: " ")
    }

    /// The usage line without the `Usage:` prefix.
    static func usage(for path: [any ParsableCommand.Type]) -> String {
        let configuration = path.last!.configuration
        if let custom = configuration.usage { return commandPath(path) + " " + custom }
        if !configuration.subcommands.isEmpty {
            return commandPath(path) + (path.count == 1 ? " [--config <file>]" : "") + " <subcommand>"
        }
        let specs = path.last!.declaredArguments
        let ordered = specs.filter { $0.kind == .positional } + specs.filter { $0.kind != .positional && $0.isRequired }
            + specs.filter { $0.kind != .positional && !$0.isRequired }
        return ([commandPath(path)] + ordered.map(\.usage)).joined(separator: " ")
    }

    /// The whole `--help` text of the last command in `path`.
    static func help(for path: [any ParsableCommand.Type]) -> String {
        let configuration = path.last!.configuration
        var sections: [String] = []
        sections.append("OVERVIEW: \(configuration.abstract)")
        sections.append("USAGE: \(usage(for: path))")
        if !configuration.discussion.isEmpty { sections.append(configuration.discussion) }

        let specs = path.last!.declaredArguments
        let positionalRows = specs.filter { $0.kind == .positional }.map { ("<\($0.valueName)>", describe($0)) }
        var optionRows = specs.filter { $0.kind != .positional }.map { spec -> (String, String) in
            (spec.kind == .flag ? "--\(spec.name)" : "--\(spec.name) <\(spec.valueName)>", describe(spec))
        }
        if path.count == 1 { optionRows.append(("--version", StandardOptions.version.help)) }
        optionRows.append(("--config <file>", StandardOptions.config.help))
        optionRows.append(("-h, --help", StandardOptions.help.help))
        let subcommandRows = configuration.subcommands.map { ($0.configuration.name, $0.configuration.abstract) }

        let all = positionalRows + optionRows + subcommandRows
        let width = min(max(all.map { $0.0.count }.max() ?? 0, 10), 26)
        if !positionalRows.isEmpty { sections.append("ARGUMENTS:\n" + rows(positionalRows, width: width)) }
        sections.append("OPTIONS:\n" + rows(optionRows, width: width))
        if !subcommandRows.isEmpty {
            sections.append("SUBCOMMANDS:\n" + rows(subcommandRows, width: width)
                + "\n\n  See '\(commandPath(path)) <subcommand> --help' for details.")
        }
        return sections.joined(separator: "\n\n")
    }

    private static func describe(_ spec: ArgumentSpec) -> String {
        var text = spec.help
        if !spec.allowedValues.isEmpty { text += " One of: \(spec.allowedValues.joined(separator: ", "))." }
        if let defaultDescription = spec.defaultDescription { text += " (default: \(defaultDescription))" }
        if spec.isRepeating { text += " May be repeated." }
        return text
    }

    /// Two columns: names padded to `width`, descriptions wrapped to fit 80 columns.
    private static func rows(_ rows: [(String, String)], width: Int) -> String {
        let indent = String(repeating: " ", count: width + 4)
        let textWidth = max(30, 80 - width - 4)
        return rows.map { left, right in
            let lines = wrap(right, width: textWidth)
            var text = left.count > width
                ? "  \(left)\n\(indent)\(lines[0])"
                : "  \(left)\(String(repeating: " ", count: width - left.count))  \(lines[0])"
            for line in lines.dropFirst() { text += "\n\(indent)\(line)" }
            return text
        }.joined(separator: "\n")
    }

    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        lines.append(current)
        return lines
    }
}
