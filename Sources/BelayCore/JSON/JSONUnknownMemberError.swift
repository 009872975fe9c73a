/// A member of a JSON object that the decoded type does not declare.
public struct JSONUnknownMemberError: Error {
    /// The path to the member, its name last.
    public let codingPath: [any CodingKey]
}
