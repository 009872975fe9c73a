import BelayArguments

extension Flag {
    /// `--json`: machine-readable output instead of a table; declare it as
    /// `@Flag(.json) var json: Bool` in any command that prints data.
    static var json: Flag { Flag("json", help: "Print JSON for scripts instead of a table.") }
}
