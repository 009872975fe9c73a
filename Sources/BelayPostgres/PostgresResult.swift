/// The rows a statement returned, in PostgreSQL's text format (NULL as nil), with the
/// columns looked up by name.
public struct PostgresResult: Sendable {
    /// Column names, in order.
    public let columns: [String]
    /// Each row's values, in column order.
    public let rows: [[String?]]

    /// The index of `name`, or nil when the result has no such column.
    public func column(_ name: String) -> Int? { columns.firstIndex(of: name) }

    /// Every row's value of the column `name`.
    /// - Throws: `PostgresError` when the result has no such column.
    public func values(_ name: String) throws -> [String?] {
        guard let index = column(name) else {
            throw PostgresError(.statementFailed(sqlState: "42703"), "The result has no column \(name) (it has \(columns.joined(separator: ", ")))")
        }
        return rows.map { $0[index] }
    }
}
