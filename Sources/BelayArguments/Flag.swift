/// A switch (`--json`), read as `Bool`: `@Flag("dry-run", help: …) var dryRun: Bool`.
@propertyWrapper
public struct Flag: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()

    /// - Parameters:
    ///   - name: the long name without dashes.
    ///   - help: one line saying what it does.
    public init(_ name: String, help: String) {
        spec = ArgumentSpec(kind: .flag, name: name, valueName: "", help: help, isRequired: false, isRepeating: false)
    }

    /// A declaration like `template`, with values of its own: for a declaration several
    /// commands share (`@Flag(.json) var json: Bool`).
    public init(_ template: Flag) {
        spec = template.spec
    }

    /// True when the flag was given.
    public var wrappedValue: Bool { first(Bool.self) != nil }
}
