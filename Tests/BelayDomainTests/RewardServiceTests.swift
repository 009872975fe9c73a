@testable import BelayDomain
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
        let policy = RewardPolicy(milestones: [1: "jug-gold", 3: "crimp-silver"])
        let fixture = try DomainFixture(settings: DomainSettings(rewards: policy))
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
        let policy = RewardPolicy(milestones: [1: "jug-gold", 3: "crimp-silver"])
        let fixture = try DomainFixture(settings: DomainSettings(rewards: policy))
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
        // Known defect: the number is the check-in's place in (checked_in_at, attendance id)
        // order, and these four share one instant. When a later attendance commits first, it
        // counts only itself, and so does the earlier one after it: two get the same number.
        withKnownIssue("Concurrent check-ins of one member at one instant can share a check-in number", isIntermittent: true) {
            #expect(milestones.withLock { $0 }.compactMap { $0 }.sorted() == [1, 3], "one first check-in, one third")
        }
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
        let picker = RewardPicker(policy: RewardPolicy(milestones: [:], rarityWeights: [.common: 60, .uncommon: 25, .rare: 12, .epic: 3]))
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
        let fixture = try DomainFixture(settings: DomainSettings(rewards: RewardPolicy(milestones: [1: "no-such-hold"])))
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
