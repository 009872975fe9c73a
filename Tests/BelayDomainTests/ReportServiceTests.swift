@testable import BelayDomain
import BelayCore
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// Reports, their snapshot, the limit, and the automatic hide, on the engine of the run.
@Suite struct ReportServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture(importCatalog: false) }
    var reports: ReportService { fixture.domain.reports }

    func count(_ sql: String, _ arguments: [any DatabaseValueConvertible] = [], in fixture: DomainFixture) throws -> Int {
        try fixture.pool.read { try $0.scalar(sql, arguments, as: Int.self) } ?? -1
    }

    @Test func aSecondReportOfTheSameSubjectUpdatesTheFirst() throws {
        let meetup = try fixture.meetup()
        let reporter = try fixture.member()
        let first = try reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam, note: "  ads  "), by: reporter.id)
        #expect(first.created)
        #expect(first.report.note == "ads")
        #expect(first.report.status == .open)
        let second = try reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .dangerous, note: "no belayer"),
                                      by: reporter.id)
        #expect(!second.created)
        #expect(second.report.id == first.report.id)
        #expect(second.report.reason == .dangerous)
        #expect(try reports.reports(of: reporter.id).items.map(\.id) == [first.report.id])
        #expect(try count("SELECT count(*) FROM reports", in: fixture) == 1)
    }

    @Test func theSnapshotKeepsTheContentAsFirstReported() throws {
        let meetup = try fixture.meetup(title: "Free crypto at the gym")
        let one = try fixture.member(), two = try fixture.member()
        _ = try reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: one.id)
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(title: "Evening bouldering"), by: fixture.hostActor)
        _ = try reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: two.id)
        let subject = try fixture.domain.moderation.subject(.meetup, String(meetup.id), by: .commandLine)
        #expect(subject.snapshot.contains("Free crypto at the gym"))
        #expect(subject.reports.count == 2)
        #expect(subject.reasons == [.spam: 2])
        #expect(subject.subjectUserID == fixture.host.id)
    }

    @Test func badSubjectsAreRefusedNamingTheField() throws {
        let member = try fixture.member()
        for (type, id, reason) in [(ReportSubjectType.meetup, "abc", RefusalReason.invalidInput), (.meetup, "0", .invalidInput),
                                   (.meetup, "424242", .meetupNotFound), (.member, "424242", .userNotFound),
                                   (.member, String(member.id), .invalidInput), (.sharePage, "x", .invalidInput),
                                   (.sharePage, String(repeating: "a", count: 22), .sharePageNotFound)] {
            do {
                _ = try reports.file(NewReport(subjectType: type, subjectID: id, reason: .other), by: member.id)
                Issue.record("\(type) \(id) was taken")
            } catch let error as DomainError {
                #expect(error.reason == reason, "\(type) \(id)")
                #expect(error.field == "subject_id", "\(type) \(id)")
            }
        }
        #expect(refusal { _ = try reports.file(NewReport(subjectType: .member, subjectID: String(fixture.host.id), reason: .other,
                                                         note: String(repeating: "x", count: 2_001)), by: member.id) } == .invalidInput)
        #expect(try count("SELECT count(*) FROM reports", in: fixture) == 0)
    }

    @Test func aMemberFilesAtMostTheDailyLimit() throws {
        let limited = try DomainFixture(settings: BuiltInSettings.domain { $0.moderation.reportsPerMemberPerDay = 2 }, importCatalog: false)
        let reporter = try limited.member()
        let meetups = try (0..<3).map { try limited.meetup(title: "Meetup \($0)") }
        for meetup in meetups.prefix(2) {
            _ = try limited.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: reporter.id)
        }
        #expect(refusal { _ = try limited.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetups[2].id), reason: .spam),
                                                               by: reporter.id) } == .reportLimit)
        // Updating one already open is not a new report.
        _ = try limited.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetups[0].id), reason: .hate), by: reporter.id)
        limited.clock.advance(by: 86_401)
        _ = try limited.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetups[2].id), reason: .spam), by: reporter.id)
    }

    @Test func enoughDistinctReportersHideTheMeetupOnce() throws {
        let guarded = try DomainFixture(settings: BuiltInSettings.domain {
            $0.moderation.autoHideReports = 3
            $0.moderation.autoHideWindow = 3_600
        }, importCatalog: false)
        _ = try guarded.domain.webhooks.add(url: "https://hooks.example.com/safety", events: [.contentHidden, .reportCreated], by: .commandLine)
        let meetup = try guarded.meetup()
        let members = try (0..<4).map { _ in try guarded.member() }
        _ = try guarded.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: members[0].id)
        // A report outside the window does not count.
        guarded.clock.advance(by: 3_700)
        _ = try guarded.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: members[1].id)
        // The same member twice is one reporter.
        _ = try guarded.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .hate), by: members[1].id)
        #expect(try guarded.domain.meetups.list(MeetupQuery(limit: 50)).items.map(\.id) == [meetup.id])
        let third = try guarded.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: members[2].id)
        #expect(!third.hidSubject)
        let fourth = try guarded.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: members[3].id)
        #expect(fourth.hidSubject)
        #expect(try guarded.domain.meetups.list(MeetupQuery(limit: 50)).items.isEmpty)
        #expect(try count("SELECT count(*) FROM webhook_events WHERE type = 'content.hidden'", in: guarded) == 1)
        #expect(try count("SELECT count(*) FROM webhook_events WHERE type = 'report.created'", in: guarded) == 4)
        let log = try guarded.domain.moderation.audit(by: .commandLine).items
        #expect(log.map(\.action) == [.autoHide])
        #expect(log.first?.moderatorID == nil)
        #expect(log.first?.reportIDs.count == 4)
        // No reporter's id is in a webhook.
        let bodies: [Data] = try guarded.pool.read { try $0.query("SELECT body FROM webhook_events", []) { try $0.get("body", as: Data.self) } }
        #expect(bodies.count == 5)
        for body in bodies { #expect(!String(decoding: body, as: UTF8.self).contains("reporter")) }
    }

    /// The issue's test: a thousand members report one meetup at once.
    @Test func aThousandMembersReportOneMeetupAtOnce() throws {
        let guarded = try DomainFixture(settings: BuiltInSettings.domain {
            $0.moderation.autoHideReports = 5
            $0.moderation.autoHideWindow = 86_400
        }, importCatalog: false)
        _ = try guarded.domain.webhooks.add(url: "https://hooks.example.com/safety", events: [.contentHidden], by: .commandLine)
        let meetup = try guarded.meetup()
        let members = try (0..<1_000).map { try guarded.domain.users.createUser(NewUser(handle: "reporter\($0)", displayName: "R\($0)")) }
        let failures = Mutex<[String]>([])
        let hid = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: members.count) { index in
            do {
                let filing = try guarded.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam),
                                                             by: members[index].id)
                if filing.hidSubject { hid.add(1, ordering: .relaxed) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { Array($0.prefix(3)) } == [])
        #expect(hid.load(ordering: .relaxed) == 1)
        #expect(try count("SELECT count(*) FROM reports WHERE subject_id = ?", [String(meetup.id)], in: guarded) == 1_000)
        #expect(try count("SELECT count(*) FROM webhook_events WHERE type = 'content.hidden'", in: guarded) == 1)
        #expect(try count("SELECT count(*) FROM moderation_actions", in: guarded) == 1)
        #expect(try count("SELECT count(*) FROM meetups WHERE hidden_at IS NOT NULL", in: guarded) == 1)
    }
}
