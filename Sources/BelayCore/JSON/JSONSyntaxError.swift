/// Why a text is not JSON: what was wrong, and where parsing stopped, as a byte offset and
/// as a line and column (counted in characters, from 1).
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem it is (request bodies answer each with its own code).
    public enum Kind: Equatable, Sendable {
        /// Not JSON's grammar: a missing comma, a bad literal, text after the value, …
        case syntax
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// An object with this member name twice.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the parser allows.
        case tooDeep
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// Bytes from the start of the text (a byte-order mark included) to where parsing stopped.
    public let offset: Int
    /// The line where parsing stopped, from 1.
    public let line: Int
    /// The column where parsing stopped, in characters from 1.
    public let column: Int
    /// What was wrong, e.g. `expected ',' or '}', found ']'`.
    public let message: String

    /// `line 4, column 3: expected a key in double quotes, found '}'`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
