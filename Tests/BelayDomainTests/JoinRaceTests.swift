@testable import BelayDomain
import BelayPostgres
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// Joins of one meetup at the same instant through two nodes (two stores, each with its own
/// writer connections, on one PostgreSQL database): none fails, none overbooks, every queue
/// position is used once. On SQLite one writer holds the whole file, so there is no race to test.
@Suite struct JoinRaceTests {
    @Test func simultaneousJoinsThroughTwoNodesNeverFailAndNeverOverbook() throws {
        let fixture = try DomainFixture()
        guard let first = fixture.pool as? PostgresStore else { return }
        let secondNode = try DomainServices(pool: try TestDatabase.reopen(first.settings.url), clock: fixture.clock, settings: BuiltInSettings.domain())
        let nodes = [fixture.domain, secondNode]
        let members = try (0..<40).map { _ in try fixture.member() }
        let failures = Mutex<[String]>([])
        var meetups: [Meetup] = []
        for round in 0..<8 {
            let meetup = try fixture.meetup(capacity: 10, title: "Round \(round)")
            meetups.append(meetup)
            DispatchQueue.concurrentPerform(iterations: members.count) { index in
                let member = members[index]
                do {
                    _ = try nodes[index % 2].attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for meetup in meetups {
            let (going, waiting, positions) = try fixture.pool.read { db in
                (try db.scalar("SELECT count(*) FROM attendances WHERE meetup_id = ? AND status = 'going'", [meetup.id], as: Int.self),
                 try db.scalar("SELECT count(*) FROM attendances WHERE meetup_id = ? AND status = 'waitlisted'", [meetup.id], as: Int.self),
                 try db.scalar("SELECT count(DISTINCT queue_position) FROM attendances WHERE meetup_id = ?", [meetup.id], as: Int.self))
            }
            #expect(going == 10)
            #expect(waiting == 30)
            #expect(positions == 40)
        }
    }
}
