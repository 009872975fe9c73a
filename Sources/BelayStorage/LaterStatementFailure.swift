/// A statement a write sent with `Database.executeLater` or `queryLater` failed, and the
/// engine learned it only at the write's end (its next savepoint or its commit): the write
/// fails with `error`, and the transaction is still open, in error, so that the group-commit
/// writer rolls back that write alone.
public struct LaterStatementFailure: Error {
    /// The statement's error, as the write named it (see `executeLater(_:_:failure:)`).
    public let error: any Error

    public init(_ error: any Error) {
        self.error = error
    }
}
