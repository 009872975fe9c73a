import BelayCore
import Foundation

/// One forward-only schema change: the file `NNNN_name.sql` and its contents.
public struct Migration: Sendable, Hashable {
    /// The number from the file name (0001 → 1).
    public let version: Int
    /// The file name without `.sql`, e.g. `0001_initial`; recorded in `schema_migrations`.
    public let identifier: String
    /// The SQL script.
    public let sql: String
    /// The lowercase hex SHA-256 of the script's bytes, recorded so that an edit to an
    /// applied migration is noticed.
    public let checksum: String

    /// A migration from its identifier (`NNNN_name`) and SQL.
    /// - Throws: `DatabaseError` (`.badFileName`) when the identifier is not `NNNN_name`.
    public init(identifier: String, sql: String) throws {
        guard let version = Migration.version(ofIdentifier: identifier) else {
            throw DatabaseError(.migration(.badFileName, message:
                "Migration name \"\(identifier)\" is not of the form NNNN_name (four digits, an underscore, lowercase letters, digits or underscores); rename it"))
        }
        self.version = version
        self.identifier = identifier
        self.sql = sql
        self.checksum = ContentDigest.hex(of: Array(sql.utf8))
    }

    /// The version of `NNNN_name`, or nil when the identifier is malformed.
    static func version(ofIdentifier identifier: String) -> Int? {
        let characters = Array(identifier.utf8)
        guard characters.count >= 6, characters[4] == UInt8(ascii: "_") else { return nil }
        let digits = characters[0..<4]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let name = characters[5...]
        guard name.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
            || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
