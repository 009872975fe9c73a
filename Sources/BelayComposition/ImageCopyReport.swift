/// What `belay images copy` did.
public struct ImageCopyReport: Sendable, Codable, Equatable {
    /// Where the images came from and went to.
    public var from: String
    public var to: String
    /// Images copied in this run.
    public var copied = 0
    /// Images the destination already had (copied by an earlier, perhaps interrupted, run).
    public var alreadyThere = 0
    public var copiedBytes: Int64 = 0
    /// Images that could not be copied, with the reason; a later run tries them again.
    public var errors: [String] = []

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}
