@testable import BelayDomain
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Dispatch
import Synchronization
import Testing

@Suite struct RewardServiceTests {
    @Test func thePickIsDeterministicAcrossDatabases() throws {
        let picks = try (0..<2).map { _ -> [String] in
            let fixture = try DomainFixture()
            let members = try (0..<6).map { _ in try fixture.member() }
            let meetups = try (0..<3).map { index in try fixture.meetup(startsIn: Double(index) * 60) }
            fixture.clock.advance(by: 3_600)
            var holds: [String] = []
            for meetup in meetups {
                for member in members {
                    holds.append(try #require(try fixture.checkedIn(member, at: meetup).reward).hold.id)
                    holds.append(try #require(try fixture.checkedIn(member, at: meetup).reward).background.id)
                }
            }
            return holds
        }
        #expect(picks[0] == picks[1])
    }

    @Test func milestonesGoToTheNthCheckIn() throws {
        let policy = BuiltInSettings.domain { $0.rewards.milestones = [1: "jug-gold", 3: "crimp-silver"] }.rewards
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = policy })
        let member = try fixture.member()
        let meetups = try (0..<4).map { index in try fixture.meetup(startsIn: Double(index) * 60) }
        fixture.clock.advance(by: 3_600)
        let rewards = try meetups.map { meetup in try #require(try fixture.checkedIn(member, at: meetup).reward) }
        #expect(rewards.map(\.milestone) == [1, nil, 3, nil])
        #expect(rewards[0].hold.id == "jug-gold")
        #expect(rewards[2].hold.id == "crimp-silver")
        #expect(!rewards[1].hold.milestoneOnly)
        #expect(!rewards[3].hold.milestoneOnly)
    }

    @Test func oneMembersCheckInsAtSeveralMeetupsAtOnceAreNumberedOneAfterAnother() throws {
        // On PostgreSQL the four check-ins run on different writer connections at once; each
        // waits for the member's row, so each counts the ones committed before it.
        let policy = BuiltInSettings.domain { $0.rewards.milestones = [1: "jug-gold", 3: "crimp-silver"] }.rewards
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = policy })
        let member = try fixture.member()
        let meetups = try (0..<4).map { index in try fixture.meetup(startsIn: Double(index) * 60) }
        for meetup in meetups {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        fixture.clock.advance(by: 3_600)
        let milestones = Mutex<[Int?]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: meetups.count) { index in
            do {
                let result = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetups[index].id, memberID: member.id, proof: .host),
                                                                 by: fixture.hostActor)
                milestones.withLock { $0.append(result.reward?.milestone) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        // The four share one instant and commit in any order: each is numbered after the ones
        // committed before it, so exactly one is the first and one the third.
        #expect(milestones.withLock { $0 }.compactMap { $0 }.sorted() == [1, 3], "one first check-in, one third")
    }

    @Test func theRewardACheckInReturnsIsTheRewardReadBack() throws {
        // The check-in builds its new reward from what it wrote instead of reading it back.
        let policy = BuiltInSettings.domain { $0.rewards.milestones = [1: "jug-gold"]; $0.rewards.streakMilestones = [1: "crimp-silver"] }.rewards
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = policy })
        let member = try fixture.member()
        let first = try fixture.meetup(startsIn: 60, place: "Climbing Park Jongno", title: "Morning laps")
        let second = try fixture.meetup(startsIn: 120)
        fixture.clock.set(first.startsAt.addingTimeInterval(0.0123))
        for meetup in [first, second] {
            let returned = try #require(try fixture.checkedIn(member, at: meetup).reward)
            #expect(returned == (try fixture.domain.rewards.reward(id: returned.id)))
            #expect(returned.meetupTitle == meetup.title && returned.placeName == meetup.placeName)
        }
    }

    @Test func anOfflineCheckInRecordedLaterAtAnEarlierTimeTakesTheNextNumber() throws {
        // Numbered by the time it happened, the offline check-in would be the first as well,
        // and the member would get the first milestone twice.
        let policy = BuiltInSettings.domain { $0.rewards.milestones = [1: "jug-gold", 2: "crimp-silver"] }.rewards
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = policy })
        let member = try fixture.member()
        let earlier = try fixture.meetup(startsIn: 60), later = try fixture.meetup(startsIn: 86_400)
        _ = try fixture.domain.attendance.join(meetupID: earlier.id, memberID: member.id, by: .user(member.id, role: .member))
        fixture.clock.set(later.startsAt.addingTimeInterval(60))
        let first = try #require(try fixture.checkedIn(member, at: later).reward)
        let offline = try fixture.domain.checkIns.checkIn(
            CheckInRequest(meetupID: earlier.id, memberID: member.id, proof: .offline(at: earlier.startsAt.addingTimeInterval(60))),
            by: fixture.hostActor)
        #expect(first.milestone == 1)
        #expect(try #require(offline.reward).milestone == 2)
        #expect(try #require(offline.reward).hold.id == "crimp-silver")
    }

    @Test func aBackfillAwardsTheMilestoneOfTheNumberTheCheckInWasGiven() throws {
        // Check-ins made while the catalogue was empty get no reward; the backfill awards them
        // later by the numbers they were given then, not by their order in time.
        let policy = BuiltInSettings.domain { $0.rewards.milestones = [1: "jug-gold", 2: "crimp-silver"] }.rewards
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = policy }, importCatalog: false)
        let member = try fixture.member()
        let earlier = try fixture.meetup(startsIn: 60), later = try fixture.meetup(startsIn: 86_400)
        _ = try fixture.domain.attendance.join(meetupID: earlier.id, memberID: member.id, by: .user(member.id, role: .member))
        fixture.clock.set(later.startsAt.addingTimeInterval(60))
        #expect(try fixture.checkedIn(member, at: later).reward == nil)
        let offline = try fixture.domain.checkIns.checkIn(
            CheckInRequest(meetupID: earlier.id, memberID: member.id, proof: .offline(at: earlier.startsAt.addingTimeInterval(60))),
            by: fixture.hostActor)
        #expect(offline.reward == nil)
        try DomainFixture.writeCatalog(in: fixture.directory.file("assets"))
        try fixture.domain.catalog.importCatalog(assetsDirectory: fixture.directory.file("assets"))
        let report = try fixture.domain.rewards.awardMissingRewards()
        #expect(report.awarded.count == 2)
        let byMeetup = try Dictionary(uniqueKeysWithValues: report.awarded.map { id in
            let reward = try fixture.domain.rewards.reward(id: id)
            return (reward.meetupID, reward.milestone)
        })
        #expect(byMeetup == [later.id: 1, earlier.id: 2])
    }

    @Test func upgradingTo0010NumbersExistingCheckInsInCheckInOrder() throws {
        let directory = try TemporaryDirectory()
        let shipped = try DomainFixture.migrator().migrations
        let database = try SQLiteDatabase(path: directory.file("old.sqlite"))
        try Migrator(migrations: shipped.filter { $0.identifier < "0010" }).migrate(database)
        try database.executeScript("""
            INSERT INTO users (id, handle, display_name, role, created_at) VALUES (1, 'h', 'H', 'host', 0), (2, 'a', 'A', 'member', 0),
                (3, 'b', 'B', 'member', 0);
            INSERT INTO meetups (id, title, place_name, starts_at, ends_at, time_zone, capacity, host_id, check_in_secret, created_at, updated_at)
                VALUES (1, 'T', 'P', 0, 1, 'Asia/Seoul', 9, 1, zeroblob(32), 0, 0), (2, 'T', 'P', 0, 1, 'Asia/Seoul', 9, 1, zeroblob(32), 0, 0),
                       (3, 'T', 'P', 0, 1, 'Asia/Seoul', 9, 1, zeroblob(32), 0, 0);
            INSERT INTO attendances (id, meetup_id, member_id, status, queue_position, joined_at, updated_at, checked_in_at)
                VALUES (1, 1, 2, 'checked_in', 1, 0, 0, 200), (2, 2, 2, 'checked_in', 1, 0, 0, 100), (3, 3, 2, 'checked_in', 1, 0, 0, 100),
                       (4, 1, 3, 'going', 2, 0, 0, NULL), (5, 2, 3, 'checked_in', 2, 0, 0, 300);
            """)
        try DomainFixture.migrator().migrate(database)
        let numbers = try database.query("SELECT id, check_in_number FROM attendances ORDER BY id") {
            "\(try $0.get("id", as: Int64.self)): \(try $0.get("check_in_number", as: Int?.self).map(String.init) ?? "-")"
        }
        #expect(numbers == ["1: 3", "2: 1", "3: 2", "4: -", "5: 1"])
    }

    @Test func theWeightedPickFollowsTheRarityWeightsAndSkipsMilestoneHolds() throws {
        let holds = DomainFixture.fixtureHolds.map { entry in
            Hold(id: entry.id, name: entry.id, type: "jug", color: "#000000", rarity: HoldRarity(rawValue: entry.rarity)!,
                 artworkPath: "holds/\(entry.id).png", milestoneOnly: entry.milestoneOnly, retiredAt: nil)
        }
        let backgrounds = DomainFixture.fixtureBackgrounds.map {
            Background(id: $0, name: $0, filePath: "backgrounds/\($0).png", topColor: "#000000", bottomColor: "#FFFFFF", retiredAt: nil)
        }
        let catalog = CatalogSnapshot(generation: 1, holds: holds, backgrounds: backgrounds)
        let picker = RewardPicker(policy: BuiltInSettings.domain {
            $0.rewards.milestones = [:]
            $0.rewards.rarityWeights = [.common: 60, .uncommon: 25, .rare: 12, .epic: 3]
        }.rewards)
        var byRarity: [HoldRarity: Int] = [:]
        var byBackground: [String: Int] = [:]
        let draws = 20_000
        for member in 0..<Int64(draws) {
            let pick = try #require(picker.pick(memberID: member, meetupID: 7, checkInNumber: 5, catalog: catalog))
            let hold = try #require(catalog.holdsByID[pick.holdID])
            #expect(!hold.milestoneOnly)
            byRarity[hold.rarity, default: 0] += 1
            byBackground[pick.backgroundID, default: 0] += 1
        }
        // Within a few percent of 60/25/12/3 (20,000 draws: standard error below 0.4%).
        #expect(abs(Double(byRarity[.common]!) / Double(draws) - 0.60) < 0.02)
        #expect(abs(Double(byRarity[.uncommon]!) / Double(draws) - 0.25) < 0.02)
        #expect(abs(Double(byRarity[.rare]!) / Double(draws) - 0.12) < 0.02)
        #expect(abs(Double(byRarity[.epic]!) / Double(draws) - 0.03) < 0.01)
        #expect(byBackground.count == 3)
        #expect(byBackground.values.allSatisfy { abs(Double($0) / Double(draws) - 1.0 / 3) < 0.02 })
    }

    @Test func aMilestoneHoldMissingFromTheCatalogueFallsBackToTheWeightedPick() throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards.milestones = [1: "no-such-hold"] })
        let meetup = try fixture.meetup()
        fixture.clock.advance(by: 3_600)
        let reward = try #require(try fixture.checkedIn(try fixture.member(), at: meetup).reward)
        #expect(reward.milestone == nil)
        #expect(!reward.hold.milestoneOnly)
    }

    @Test func missingRewardsAreAwardedWithTheSameAnswerAndOnlyOnce() throws {
        // The same check-ins, once with the catalogue present and once imported only afterwards.
        func run(catalogFirst: Bool) throws -> (live: [String?], backfilled: [String], report: AwardReport) {
            let fixture = try DomainFixture(importCatalog: catalogFirst)
            let members = try (0..<4).map { _ in try fixture.member() }
            let meetups = try (0..<2).map { index in try fixture.meetup(startsIn: Double(index) * 60) }
            fixture.clock.advance(by: 3_600)
            var live: [String?] = []
            for meetup in meetups {
                for member in members { live.append(try fixture.checkedIn(member, at: meetup).reward?.hold.id) }
            }
            if !catalogFirst {
                let empty = try fixture.domain.rewards.awardMissingRewards()
                #expect(empty.awarded.isEmpty)
                #expect(empty.skippedWithoutCatalog == 8)
                try DomainFixture.writeCatalog(in: fixture.directory.file("assets"))
                try fixture.domain.catalog.importCatalog(assetsDirectory: fixture.directory.file("assets"))
            }
            let report = try fixture.domain.rewards.awardMissingRewards(limit: 5)
            let rest = try fixture.domain.rewards.awardMissingRewards()
            #expect(try fixture.domain.rewards.awardMissingRewards().awarded.isEmpty, "a second run awards nothing")
            var all = report
            all.awarded += rest.awarded
            let holds = try members.flatMap { member in
                try fixture.domain.rewards.rewards(memberID: member.id).items.reversed().map(\.hold.id)
            }
            if !catalogFirst {
                #expect(report.hasMore)
                #expect(report.awarded.count == 5)
                #expect(rest.awarded.count == 3)
                #expect(!rest.hasMore)
                let jobs = try all.awarded.flatMap { try fixture.domain.renderJobs.jobs(rewardID: $0) }
                #expect(jobs.count == 8)
                #expect(jobs.allSatisfy { $0.reason == .backfill && $0.status == .queued })
            }
            return (live, holds, all)
        }
        let live = try run(catalogFirst: true)
        let backfilled = try run(catalogFirst: false)
        #expect(live.live.allSatisfy { $0 != nil })
        #expect(live.report.awarded.isEmpty)
        #expect(backfilled.live.allSatisfy { $0 == nil })
        #expect(live.backfilled == backfilled.backfilled)
    }

    @Test func oneRewardPerAttendanceIsAConstraint() throws {
        let fixture = try DomainFixture()
        let meetup = try fixture.meetup()
        fixture.clock.advance(by: 3_600)
        let reward = try #require(try fixture.checkedIn(try fixture.member(), at: meetup).reward)
        let error = try #require(throws: DatabaseError.self) {
            try fixture.pool.write { db in
                try db.execute("""
                    INSERT INTO rewards (attendance_id, member_id, meetup_id, hold_id, background_id, awarded_at)
                    SELECT attendance_id, member_id, meetup_id, hold_id, background_id, awarded_at FROM rewards WHERE id = ?
                    """, [reward.id])
            }
        }
        #expect(error.isUniqueConstraintViolation)
    }

    @Test func rewardsPageNewestFirst() throws {
        let fixture = try DomainFixture()
        let member = try fixture.member()
        let meetups = try (0..<5).map { index in try fixture.meetup(startsIn: Double(index) * 60) }
        fixture.clock.advance(by: 3_600)
        let ids = try meetups.map { try #require(try fixture.checkedIn(member, at: $0).reward).id }
        let first = try fixture.domain.rewards.rewards(memberID: member.id, limit: 3)
        let second = try fixture.domain.rewards.rewards(memberID: member.id, limit: 3, cursor: first.nextCursor)
        #expect(first.items.map(\.id) == Array(ids.reversed().prefix(3)))
        #expect(second.items.map(\.id) == Array(ids.reversed().suffix(2)))
        #expect(second.nextCursor == nil)
        let reward = try fixture.domain.rewards.reward(id: ids[0])
        #expect(reward.placeName == "Seoul Forest Gym")
        #expect(reward.meetupTimeZone == "Asia/Seoul")
        #expect(reward.background.topColor == "#1E3C72")
        #expect(refusal { _ = try fixture.domain.rewards.reward(id: 999) } == .rewardNotFound)
    }
}
