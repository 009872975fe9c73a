/// The options the runner itself handles for every command; help lists them after the
/// command's own.
enum StandardOptions {
    /// `--config <file>`: accepted by every command, before or after the subcommand.
    static let config = ArgumentSpec(kind: .option, name: "config", valueName: "file",
        help: "Read settings from this file (default: $BELAY_CONFIG, else ./config.json when present, else built-in defaults).",
        isRequired: false, isRepeating: false)
    /// `--help`, `-h`: accepted by every command.
    static let help = ArgumentSpec(kind: .flag, name: "help", valueName: "", help: "Show help for this command.",
                                   isRequired: false, isRepeating: false)
    /// `--version`: accepted by the root command.
    static let version = ArgumentSpec(kind: .flag, name: "version", valueName: "", help: "Show Belay's version.",
                                      isRequired: false, isRepeating: false)
}
