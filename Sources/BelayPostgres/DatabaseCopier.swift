import BelayCore
import BelayStorage
import Foundation

/// Copies a club's whole SQLite database into an empty PostgreSQL one (`belay db copy`):
/// migrates the target, copies every table in the order its foreign keys need, sets the id
/// sequences past the copied ids, and reads every table back to compare its row count and a
/// SHA-256 of its rows in key order with the source's. The copy is one transaction on the
/// target, so a failure keeps no row (the migrations, applied first, stay; a new copy into the
/// migrated, empty database works). A target that already holds Belay rows is refused.
public struct DatabaseCopier {
    /// One table's outcome.
    public struct TableReport: Sendable, Equatable {
        public let table: String
        public let rows: Int
        /// SHA-256 of the rows in key order, the same on both sides.
        public let checksum: String
    }

    /// Rows the PostgreSQL migrations insert themselves; the copy replaces them with the source's.
    static let seededTables: Set<String> = ["catalog_generation", "calendar_feed_secret"]
    static let batchRows = 500

    private let source: Database
    private let target: PostgresConnection
    private let migrator: Migrator

    public init(source: Database, target: PostgresConnection, migrator: Migrator) {
        self.source = source
        self.target = target
        self.migrator = migrator
    }

    /// Copies and verifies; `progress` hears of each table as it is done.
    /// - Returns: every table's rows and checksum.
    /// - Throws: `PostgresError` (`targetNotEmpty` naming a table that has rows,
    ///   `verificationFailed` naming a table that reads back differently, or the server's
    ///   refusal), `DatabaseError` for the source.
    public func copy(progress: (TableReport) -> Void = { _ in }) throws -> [TableReport] {
        let tables = try Self.tablesInDependencyOrder(source)
        let hasSchema = try target.execute("""
            SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
            """).rows[0][0] != "0"
        if hasSchema {
            let known = try target.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'").rows[0][0]
            guard known == "1" else {
                throw PostgresError(.targetNotEmpty, "The target database already has tables that are not Belay's; copy into a new, empty database (createdb belay)")
            }
        }
        try migrator.migrate(target)
        return try target.transaction {
            for table in tables.map(\.name) where !Self.seededTables.contains(table) {
                let count = try target.execute("SELECT count(*) FROM \(Self.quoted(table))").rows[0][0] ?? "0"
                guard count == "0" else {
                    throw PostgresError(.targetNotEmpty, "The target database is not empty: \(table) has \(count) rows. belay db copy only copies into an empty database, so that nothing is mixed or lost; create a new one (createdb) and copy into that")
                }
            }
            for table in Self.seededTables { try target.execute("DELETE FROM \(Self.quoted(table))") }
            // The counters kept by triggers are copied as they are, so the triggers must not add to them.
            for table in tables { try target.execute("ALTER TABLE \(Self.quoted(table.name)) DISABLE TRIGGER USER") }
            var reports: [TableReport] = []
            for table in tables {
                let written = try copyRows(of: table)
                let read = try checksumOfTarget(table)
                guard read.rows == written.rows, read.checksum == written.checksum else {
                    throw PostgresError(.verificationFailed,
                        "\(table.name) reads back differently from PostgreSQL: \(read.rows) rows (checksum \(read.checksum)) against \(written.rows) in SQLite (checksum \(written.checksum)); nothing was kept")
                }
                if table.hasIdentity {
                    try target.execute("SELECT setval(pg_get_serial_sequence($1, 'id'), coalesce(max(id), 0) + 1, false) FROM \(Self.quoted(table.name))",
                                       [table.name])
                }
                let report = TableReport(table: table.name, rows: written.rows, checksum: written.checksum)
                reports.append(report)
                progress(report)
            }
            // Meetups' revisions come from a sequence here: the next is past every copied one.
            try target.execute("SELECT setval('meetup_revisions', coalesce(max(revision), 0) + 1, false) FROM meetups")
            for table in tables { try target.execute("ALTER TABLE \(Self.quoted(table.name)) ENABLE TRIGGER USER") }
            return reports
        }
    }

    // MARK: Tables

    struct Table {
        let name: String
        let columns: [String]
        let primaryKey: [String]
        let blobColumns: Set<String>
        let textColumns: Set<String>
        /// An INTEGER `id` key, which PostgreSQL numbers from an identity sequence.
        let hasIdentity: Bool
    }

    static func tablesInDependencyOrder(_ database: Database) throws -> [Table] {
        // Ordinary tables only: the search indexes (R*Tree, FTS5) and their shadow tables are
        // built again on PostgreSQL by its own migrations from the rows copied.
        let names: [String] = try database.query("""
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'
              AND name <> 'schema_migrations' ORDER BY name
            """) { try $0.get("name") }
        var tables: [String: Table] = [:]
        var dependencies: [String: Set<String>] = [:]
        for name in names {
            let info: [(name: String, type: String, pk: Int)] = try database.query("SELECT name, type, pk FROM pragma_table_info(?)", [name]) {
                (try $0.get("name"), try $0.get("type"), try $0.get("pk"))
            }
            if let real = info.first(where: { $0.type.uppercased() == "REAL" }) {
                throw PostgresError(.verificationFailed, "\(name).\(real.name) is REAL, which belay db copy does not carry over exactly")
            }
            let primaryKey = info.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
            tables[name] = Table(name: name, columns: info.map(\.name), primaryKey: primaryKey.isEmpty ? ["rowid"] : primaryKey,
                                 blobColumns: Set(info.filter { $0.type.uppercased() == "BLOB" }.map(\.name)),
                                 textColumns: Set(info.filter { $0.type.uppercased() == "TEXT" }.map(\.name)),
                                 hasIdentity: primaryKey == ["id"] && info.contains { $0.name == "id" && $0.type.uppercased() == "INTEGER" })
            let referenced: [String] = try database.query("SELECT \"table\" FROM pragma_foreign_key_list(?)", [name]) { try $0.get("table") }
            dependencies[name] = Set(referenced).subtracting([name])
        }
        var ordered: [Table] = []
        var placed = Set<String>()
        while ordered.count < names.count {
            guard let next = names.first(where: { !placed.contains($0) && dependencies[$0, default: []].isSubset(of: placed) }),
                  let table = tables[next] else {
                throw PostgresError(.verificationFailed, "The source's foreign keys form a cycle; it cannot be copied table by table")
            }
            ordered.append(table)
            placed.insert(next)
        }
        return ordered
    }

    // MARK: Rows

    /// Reads the source table in key order, a batch at a time, inserting each batch into the
    /// target, and returns the rows' count and checksum.
    private func copyRows(of table: Table) throws -> (rows: Int, checksum: String) {
        let columns = table.columns.map(Self.quoted).joined(separator: ", ")
        let order = table.primaryKey.map(Self.quoted).joined(separator: ", ")
        let digest = RowDigest()
        var offset = 0
        while true {
            let batch: [[DatabaseValue]] = try source.query(
                "SELECT \(columns) FROM \(Self.quoted(table.name)) ORDER BY \(order) LIMIT ? OFFSET ?", [Self.batchRows, offset]) { row in
                (0..<table.columns.count).map { row.value($0) }
            }
            guard !batch.isEmpty else { break }
            var parameters: [String?] = []
            var tuples: [String] = []
            for values in batch {
                let texts = values.map(Self.text)
                digest.add(texts)
                tuples.append("(" + (0..<texts.count).map { "$\(parameters.count + $0 + 1)" }.joined(separator: ", ") + ")")
                parameters += texts
            }
            try target.execute("INSERT INTO \(Self.quoted(table.name)) (\(columns)) VALUES \(tuples.joined(separator: ", "))", parameters)
            offset += batch.count
        }
        return (digest.count, digest.finish())
    }

    /// Reads the target table back in the same order and returns its count and checksum.
    private func checksumOfTarget(_ table: Table) throws -> (rows: Int, checksum: String) {
        let columns = table.columns.map { column in
            table.blobColumns.contains(column) ? "encode(\(Self.quoted(column)), 'hex')" : Self.quoted(column)
        }.joined(separator: ", ")
        // Byte order for text keys, as SQLite's BINARY collation.
        let order = table.primaryKey.map { table.textColumns.contains($0) ? "\(Self.quoted($0)) COLLATE \"C\"" : Self.quoted($0) }
            .joined(separator: ", ")
        let digest = RowDigest()
        var offset = 0
        while true {
            let batch = try target.execute(
                "SELECT \(columns) FROM \(Self.quoted(table.name)) ORDER BY \(order) LIMIT \(Self.batchRows * 4) OFFSET \(offset)")
            guard !batch.rows.isEmpty else { break }
            for row in batch.rows { digest.add(row) }
            offset += batch.rows.count
        }
        return (digest.count, digest.finish())
    }

    /// A value as PostgreSQL's text input takes it (blobs as `\x` hex for BYTEA).
    static func text(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: nil
        case let .integer(number): String(number)
        case let .real(number): String(number)
        case let .text(string): string
        case let .blob(data): "\\x" + Crypto.hex(Array(data))
        }
    }

    static func quoted(_ identifier: String) -> String { "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

/// SHA-256 over rows of text values, each value and row framed so that no two tables of rows
/// give the same bytes; blobs count by their hex digits (PostgreSQL's `encode(…, 'hex')`,
/// and SQLite's `\x` form without the prefix). Hashes as it goes, so memory stays flat.
final class RowDigest {
    private let hasher = SHA256Hasher()
    private var pending: [UInt8] = []
    private(set) var count = 0

    func add(_ values: [String?]) {
        count += 1
        for value in values {
            guard var value else {
                pending.append(0)
                continue
            }
            if value.hasPrefix("\\x") { value.removeFirst(2) }
            pending.append(1)
            pending += Array(String(value.utf8.count).utf8)
            pending.append(0x3A)
            pending += Array(value.utf8)
        }
        pending.append(0x0A)
        if pending.count > 1 << 16 { flush() }
    }

    func finish() -> String {
        flush()
        return Crypto.hex(hasher.finish())
    }

    private func flush() {
        hasher.update(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
