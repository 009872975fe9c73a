@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// What the outbox's writer asks of the database beyond its rows: the work notification that
/// wakes every node's delivery workers.
@Suite struct WebhookEmitterTests {
    /// An emitter whose events carry ids only.
    static let identifiers = WebhookEmitter(encoder: WebhookIdentifiersEncoding())

    @Test func onlyAnEventSomeEndpointTakesWakesTheDeliveryWorkers() throws {
        // The event is written by the statements that find its subscribers; the notification
        // must follow what they queued, or every check-in of a club whose endpoints do not take
        // check-ins would wake every node's workers.
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/rewards", events: [.rewardReady], by: .commandLine)
        let now = fixture.clock.now()
        let asked = try fixture.pool.write { db -> [[String]] in
            let recording = NotificationRecordingDatabase(db)
            var asked: [[String]] = []
            for type in [WebhookEventType.checkInCreated, .rewardReady] {
                try Self.identifiers.emit(type, subject: .member(1), now: now, buildReadsNothing: true, in: recording) { Array("{}".utf8) }
                // A statement that waits for its answer has the ones sent for later answered first.
                _ = try recording.scalar("SELECT 1", as: Int64.self)
                asked.append(recording.channels)
            }
            return asked
        }
        #expect(asked == [[], [WorkNotification.webhookDeliveries.rawValue]])
    }

    @Test func aPayloadThatReadsNothingIsBuiltBeforeAskingOnlyWhereAskingCostsARoundTrip() throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/rewards", events: [.rewardReady], by: .commandLine)
        let now = fixture.clock.now()
        var built: [WebhookEventType] = []
        let events = try fixture.pool.write { db -> [String] in
            for type in [WebhookEventType.checkInCreated, .rewardReady] {
                try Self.identifiers.emit(type, subject: .member(1), now: now, buildReadsNothing: true, in: db) {
                    built.append(type)
                    return Array("{}".utf8)
                }
            }
            return try db.query("SELECT type FROM webhook_events ORDER BY id", []) { try $0.get("type", as: String.self) }
        }
        #expect(events == [WebhookEventType.rewardReady.rawValue])
        // SQLite's statements run in-process: it asks for the subscribers first and builds only
        // for one. PostgreSQL builds first and asks inside the one statement it sends.
        #expect(built == (TestDatabase.isPostgreSQL ? [.checkInCreated, .rewardReady] : [.rewardReady]))
    }
}

/// A database that passes everything on and records the notifications asked of it.
private final class NotificationRecordingDatabase: Database {
    private let database: any Database
    private(set) var channels: [String] = []

    init(_ database: any Database) { self.database = database }

    var dialect: any SQLDialect { database.dialect }
    var changes: Int { database.changes }

    func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws { try database.execute(sql, arguments) }

    func query<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ read: (Row) throws -> T) throws -> [T] {
        try database.query(sql, arguments, read)
    }

    func queryOne<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ read: (Row) throws -> T) throws -> T? {
        try database.queryOne(sql, arguments, read)
    }

    func executeScript(_ script: String) throws { try database.executeScript(script) }

    func queryLater<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                       _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        try database.queryLater(sql, arguments, read)
    }

    func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                         _ arguments: [any DatabaseValueConvertible],
                         _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        try database.queryFeeding(change, returning: columns, as: name, into: statement, arguments, read)
    }

    func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                         when condition: String, _ arguments: [any DatabaseValueConvertible],
                         then build: () throws -> [any DatabaseValueConvertible]?,
                         _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        try database.queryFeeding(change, returning: columns, as: name, into: statement, when: condition, arguments, then: build, read)
    }

    func notifyAtCommit(_ channel: String) throws {
        channels.append(channel)
        try database.notifyAtCommit(channel)
    }
}
