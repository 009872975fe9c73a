import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Reading columns by name, and enumerations that refuse values no case has.
@Suite struct RowTests {
    enum Status: String { case scheduled, cancelled }

    let directory: TemporaryDirectory
    let database: SQLiteDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try SQLiteDatabase(path: directory.file("rows.sqlite"))
        try database.execute("CREATE TABLE meetups (id INTEGER PRIMARY KEY, title TEXT NOT NULL, status TEXT, host_id INTEGER)")
        try database.execute("INSERT INTO meetups (id, title, status, host_id) VALUES (1, 'Bouldering', 'scheduled', 7), (2, 'Crag', 'postponed', NULL)")
    }

    @Test func columnsAreReadByNameWhateverTheirPosition() throws {
        for sql in ["SELECT id, title, host_id FROM meetups WHERE id = 1", "SELECT host_id, title, id FROM meetups WHERE id = 1",
                    "SELECT m.title, m.host_id AS host_id, m.id FROM meetups m WHERE m.id = 1"] {
            let row = try database.queryOne(sql) { row in
                (try row.get("id", as: Int64.self), try row.get("title", as: String.self), try row.get("host_id", as: Int64?.self))
            }
            #expect(row?.0 == 1, "\(sql)")
            #expect(row?.1 == "Bouldering", "\(sql)")
            #expect(row?.2 == 7, "\(sql)")
        }
    }

    @Test func anUnknownOrAmbiguousNameIsRefusedNamingIt() throws {
        let missing = try #require(throws: DatabaseError.self) {
            _ = try database.queryOne("SELECT id FROM meetups") { try $0.get("title", as: String.self) }
        }
        #expect(missing.description.hasPrefix("No column named title – while executing `SELECT id FROM meetups`"))
        let twice = try #require(throws: DatabaseError.self) {
            _ = try database.queryOne("SELECT a.id, b.id FROM meetups a JOIN meetups b") { try $0.get("id", as: Int64.self) }
        }
        #expect(twice.description.hasPrefix("Two columns are named id; alias one"))
    }

    @Test func aConversionErrorNamesTheColumn() throws {
        let error = try #require(throws: DatabaseError.self) {
            _ = try database.queryOne("SELECT host_id FROM meetups WHERE id = 2") { try $0.get("host_id", as: Int64.self) }
        }
        #expect(error.description.hasPrefix("Cannot read column host_id as Int64: it holds NULL"))
    }

    @Test func aKnownEnumerationValueIsReadAndNullIsNil() throws {
        #expect(try database.queryOne("SELECT status FROM meetups WHERE id = 1") { try $0.get("status", as: Status.self) } == .scheduled)
        #expect(try database.queryOne("SELECT NULL AS status") { try $0.get("status", as: Status?.self) } == .some(nil))
    }

    @Test func anUnknownEnumerationValueThrowsNamingColumnAndValue() throws {
        let error = try #require(throws: DatabaseError.self) {
            _ = try database.queryOne("SELECT status FROM meetups WHERE id = 2") { try $0.get("status", as: Status.self) }
        }
        #expect(error.unknownStoredValue?.column == "status")
        #expect(error.unknownStoredValue?.value == "postponed")
        #expect(error.description.hasPrefix("Column status holds 'postponed', which is not a Status"))
        let optional = try #require(throws: DatabaseError.self) {
            _ = try database.queryOne("SELECT status FROM meetups WHERE id = 2") { try $0.get("status", as: Status?.self) }
        }
        #expect(optional.unknownStoredValue?.value == "postponed")
    }

    @Test func aListOfEnumerationValuesRefusesAnUnknownPart() throws {
        #expect(try database.queryOne("SELECT 'scheduled,cancelled' AS s") { try $0.get("s", separatedBy: ",", as: Status.self) } == [.scheduled, .cancelled])
        #expect(try database.queryOne("SELECT '' AS s") { try $0.get("s", separatedBy: ",", as: Status.self) } == [])
        let error = try #require(throws: DatabaseError.self) {
            _ = try database.queryOne("SELECT 'scheduled,gone' AS s") { try $0.get("s", separatedBy: ",", as: Status.self) }
        }
        #expect(error.unknownStoredValue?.column == "s")
        #expect(error.unknownStoredValue?.value == "gone")
    }
}
