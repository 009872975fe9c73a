import BelayCore
@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// An endpoint that is down gathers pending deliveries (a day of retries), and every check-in
/// queues one more and wakes the delivery workers. Neither may read the whole queue: on
/// PostgreSQL each statement is prepared once per connection and its plan kept, and a plan
/// made while the outbox was empty (no statistics yet) once read every pending delivery of the
/// endpoint, so check-ins got slower with each one queued. These tests run the prepared
/// statements as the server keeps them (`EXPLAIN … EXECUTE`) and count the rows they read.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "plans of prepared statements are PostgreSQL's"))
struct WebhookQueuePlanTests {
    /// An emitter whose events carry ids only, with the built-in push policy.
    static let identifiers = WebhookEmitter(encoder: WebhookIdentifiersEncoding())

    /// Pending deliveries queued to the one endpoint before the plans are looked at.
    static let backlog = 1_500

    @Test func queuingAnEventReadsOneDeliveryOfTheQueueHoweverLongItIs() throws {
        let fixture = try Self.fixtureWithAnEndpoint()
        let now = fixture.clock.now()
        let rows = try fixture.pool.write { db -> [(node: String, rows: Int)] in
            for index in 0..<Self.backlog {
                try Self.identifiers.emit(.checkInCreated, subject: .member(Int64(index % 50)), now: now,
                                                    buildReadsNothing: true, in: db) { Array("{}".utf8) }
            }
            let name = try Self.preparedStatement(startingWith: "WITH event AS (INSERT INTO webhook_events (message_id, type, body, created_at) SELECT", in: db)
            // A member with nothing queued yet, as at every first check-in: the new delivery takes
            // the turn the queue is at.
            let body = "'\\x7b7d'::bytea"
            return try Self.rowsRead(of: "webhook_deliveries", explaining:
                "EXECUTE \(name)('check_in.created', NULL, \(now.millisecondsSince1970), 'plan-test', \(body), 'member:999')", in: db)
        }
        #expect(!rows.isEmpty, "the plan read no pending delivery at all: has the statement changed?")
        #expect(rows.allSatisfy { $0.rows <= 1 }, "\(rows)")
    }

    @Test func lookingForADueDeliveryReadsOneHeadPerEndpoint() throws {
        let fixture = try Self.fixtureWithAnEndpoint()
        let now = fixture.clock.now()
        let rows = try fixture.pool.write { db -> [(node: String, rows: Int)] in
            // Planned while nothing waits, as on a server just started.
            for _ in 0..<10 { _ = try WebhookRepository.hasDue(now: now, in: db) }
            for index in 0..<Self.backlog {
                try Self.identifiers.emit(.checkInCreated, subject: .member(Int64(index % 50)), now: now,
                                                    buildReadsNothing: true, in: db) { Array("{}".utf8) }
            }
            #expect(try WebhookRepository.hasDue(now: now, in: db))
            let name = try Self.preparedStatement(startingWith: "SELECT 1 FROM (SELECT", in: db)
            return try Self.rowsRead(of: "webhook_deliveries", explaining: "EXECUTE \(name)(\(now.millisecondsSince1970))", in: db)
        }
        #expect(!rows.isEmpty, "the plan read no delivery at all: has the statement changed?")
        #expect(rows.allSatisfy { $0.rows <= 1 }, "\(rows)")
    }

    private static func fixtureWithAnEndpoint() throws -> DomainFixture {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/check-ins", events: [.checkInCreated], by: .commandLine)
        return fixture
    }

    /// The name this connection prepared the statement starting with `prefix` under.
    private static func preparedStatement(startingWith prefix: String, in db: Database) throws -> String {
        let names = try db.query("SELECT name FROM pg_prepared_statements WHERE ltrim(statement) LIKE ? || '%'", [prefix]) {
            try $0.get("name", as: String.self)
        }
        return try #require(names.first, "no statement starting with \(prefix) was prepared on this connection")
    }

    /// Every plan node that read `table`, with the rows it read in all its loops (returned, or
    /// passed over by a filter).
    private static func rowsRead(of table: String, explaining statement: String, in db: Database) throws -> [(node: String, rows: Int)] {
        let text = try #require(try db.scalar("EXPLAIN (ANALYZE, FORMAT JSON) \(statement)", as: String.self))
        var found: [(String, Int)] = []
        func walk(_ value: JSONValue) {
            switch value {
            case let .array(items):
                items.forEach(walk)
            case let .object(members):
                if case let .string(relation)? = members["Relation Name"], relation == table,
                   case let .number(rows)? = members["Actual Rows"], case let .number(loops)? = members["Actual Loops"] {
                    let kind = members["Node Type"].flatMap { if case let .string(kind) = $0 { kind } else { nil } } ?? "?"
                    let index = members["Index Name"].flatMap { if case let .string(index) = $0 { " on " + index } else { nil } } ?? ""
                    var removed = 0.0
                    if case let .number(filtered)? = members["Rows Removed by Filter"] { removed = filtered.doubleValue }
                    found.append((kind + index, Int(((rows.doubleValue + removed) * loops.doubleValue).rounded())))
                }
                for member in members { walk(member.value) }
            default:
                break
            }
        }
        walk(try JSONParser.parse(text))
        return found
    }
}
