import Foundation

/// Decodes `Decodable` types from a parsed `JSONValue`, strictly: no number-to-string or
/// string-to-number coercion, integers exactly as written, dates as RFC 3339 strings with an
/// offset, and (unless told otherwise) every member of an object that a type decodes must be
/// one the type asks for.
public struct StrictJSONDecoder: Sendable {
    /// Whether a member no decoded type asks for is an error (request bodies) or ignored
    /// (files that may carry notes for people).
    public var refusesUnknownMembers: Bool

    /// A decoder; `refusesUnknownMembers` as the property says.
    public init(refusesUnknownMembers: Bool = true) {
        self.refusesUnknownMembers = refusesUnknownMembers
    }

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` naming the coding path of the value at fault (its debug
    ///   description says what was expected and found); `JSONUnknownMemberError` for the first
    ///   member, in document order, that no decoded type asked for (when `refusesUnknownMembers`);
    ///   errors a type's own
    ///   `init(from:)` throws pass through unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let session = StrictDecodingSession()
        let decoded = try StrictNodeDecoder.decodeValue(type, value, path: [], session: session)
        if refusesUnknownMembers, let path = session.firstUnknownMember() { throw JSONUnknownMemberError(codingPath: path) }
        return decoded
    }
}
