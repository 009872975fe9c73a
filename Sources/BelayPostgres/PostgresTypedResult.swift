import BelayStorage

/// What a statement run with typed parameters returned: its columns, its rows as the storage
/// classes the repositories read, and how many rows it changed.
public struct PostgresTypedResult: Sendable {
    /// Column names, in order.
    public let columns: [String]
    /// Each row's values, in column order.
    public let rows: [[DatabaseValue]]
    /// The rows an INSERT, UPDATE or DELETE changed (libpq's `PQcmdTuples`), 0 otherwise.
    public let affectedRows: Int
}
