/// One row's values as an engine that reads whole rows hands them over (PostgreSQL), with
/// the layout its statement's rows share.
public final class RowValues {
    /// The column names and the statement, shared by every row of one result.
    public let layout: RowLayout
    /// The values in the order of the SELECT list.
    public let values: [DatabaseValue]

    /// - Precondition: `values` has one value per column of `layout`.
    public init(layout: RowLayout, values: [DatabaseValue]) {
        precondition(values.count == layout.columnCount, "a row needs one value per column")
        self.layout = layout
        self.values = values
    }
}

/// The columns of one statement's result, looked up by name.
public final class RowLayout: Sendable {
    /// The statement, for messages.
    public let sql: String
    /// The column names in the order of the SELECT list.
    public let columns: [String]
    /// The position of each column by name; -1 marks a name two columns share.
    public let columnIndices: [String: Int]
    /// How many columns a row has.
    public var columnCount: Int { columns.count }

    /// - Parameters:
    ///   - columns: the names in the order of the SELECT list.
    ///   - sql: the statement they came from.
    public init(columns: [String], sql: String) {
        var indices: [String: Int] = [:]
        for (column, name) in columns.enumerated() {
            indices[name] = indices[name] == nil ? column : -1
        }
        columnIndices = indices
        self.columns = columns
        self.sql = sql
    }
}
