import Synchronization

/// The values the command line gave one declaration. A reference, so that the copy the
/// runner reflected over and the command's own property see the same values.
public final class ArgumentStorage: Sendable {
    private let values = Mutex<[any Sendable]?>(nil)

    public init() {}

    /// Set once by the runner before `validate()` runs.
    func assign(_ given: [any Sendable]) { values.withLock { $0 = given } }

    /// The values given, in order; empty when the word was left out.
    var given: [any Sendable] { values.withLock { $0 ?? [] } }

    /// True when the runner has parsed a command line into this declaration.
    var isParsed: Bool { values.withLock { $0 != nil } }
}
