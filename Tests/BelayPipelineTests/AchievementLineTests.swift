import BelayDomain
@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

/// The line stories and share cards lead with: from the reward's facts, in the club's language,
/// on the render request unless `render.achievement_line` is off.
@Suite struct AchievementLineTests {
    @Test(arguments: [
        (1, nil, "en_GB", "First climb with the club"), (1, nil, "ko_KR", "클럽과 함께한 첫 클라이밍"),
        (1, nil, "ja_JP", "クラブで初めてのクライミング"), (12, nil, "en_US", "12th check-in"),
        (12, 5, "en_US", "12th check-in · 5-week streak"), (12, 5, "ko_KR", "12번째 체크인 · 5주 연속"),
        (12, 5, "ja_JP", "12回目のチェックイン · 5週連続"), (2, nil, "de_DE", "2nd check-in"),
    ] as [(Int, Int?, String, String)])
    func saysWhatTheDayMeantInTheClubsLanguage(number: Int, streak: Int?, locale: String, expected: String) {
        #expect(AchievementLine(checkInNumber: number, streakWeeks: streak).text(locale: locale) == expected)
    }

    @Test func englishOrdinals() {
        let ordinals = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112, 113].map(AchievementLine.englishOrdinal)
        #expect(ordinals == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th", "113th"])
    }

    @Test func nothingToSayIsAnEmptyLine() {
        #expect(AchievementLine(checkInNumber: nil).text(locale: "en") == "")
        #expect(AchievementLine(checkInNumber: nil, streakWeeks: 1).text(locale: "en") == "")
    }

    @Test func aJobsRequestCarriesTheLineAndTheHoldsNameInTheClubsLanguage() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 2, members: 1)
        let worker = fixture.workerContext()
        let jobs = try fixture.domain.renderJobs.claim(owner: worker.owner, limit: 2)
        #expect(jobs.map(\.checkInNumber) == [1, 2])

        var settings = fixture.settings
        settings.holdNames = LocalizedHoldNames(names: ["jug-gold": ["ko": "골드 저그", "ja": "ゴールドガバ"]])
        let service = try RenderService(queue: fixture.domain.renderJobs, clock: fixture.clock, settings: settings)
        let first = service.request(for: jobs[0], in: worker)
        #expect(first.achievementLine == "클럽과 함께한 첫 클라이밍")
        // The first check-in's milestone hold, named in Korean for a Korean club.
        #expect(jobs[0].hold.id == "jug-gold" && first.holdName == "골드 저그")
        #expect(service.request(for: jobs[1], in: worker).achievementLine == "2번째 체크인")

        settings.achievementLine = false
        let off = try RenderService(queue: fixture.domain.renderJobs, clock: fixture.clock, settings: settings)
        #expect(off.request(for: jobs[1], in: worker).achievementLine == "")
    }
}

/// The story says what the member climbed at the meetup once they log it: ticks queue one
/// delayed redraw per reward, and the redraw's line names the day's sends and a personal best.
@Suite struct ClimbingStoryLineTests {
    @Test(arguments: [
        ("en_GB", "First V5 send · 3 sends"), ("ko_KR", "첫 V5 완등 · 3개 완등"), ("ja_JP", "初のV5完登 · 3本完登"),
    ])
    func theLineSaysTheDaysSendsAndPersonalBest(locale: String, expected: String) {
        let day = ClimbingDay(sends: 3, flashes: 1, hardest: "V5", personalBest: "V5")
        #expect(AchievementLine(checkInNumber: 12, climbing: day).text(locale: locale) == expected)
        let plain = ClimbingDay(sends: 1, flashes: 0, hardest: "6c", personalBest: nil)
        #expect(AchievementLine(checkInNumber: 12, climbing: plain).text(locale: "en") == "1 send · best 6c")
        let tried = ClimbingDay(sends: 0, flashes: 0, hardest: nil, personalBest: nil)
        #expect(AchievementLine(checkInNumber: 12, climbing: tried).text(locale: "en") == "12th check-in", "attempts alone say nothing new")
    }

    @Test func ticksAtAMeetupQueueOneDelayedRedrawWhoseLineNamesThem() throws {
        let fixture = try PipelineFixture()
        let meetup = try #require(try fixture.history(meetups: 1, members: 1).first)
        let worker = fixture.workerContext()
        let first = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner, limit: 1).first)
        _ = fixture.service.process(first, in: worker)
        let member = first.memberID

        // Logged the next day for the evening of the meetup, inside its check-in window.
        let during = meetup.startsAt.addingTimeInterval(1_800)
        _ = try fixture.domain.logbook.logBatch([
            NewTick(clientTickID: "1", grade: "V3", gradeScale: .v, style: .send, climbedAt: during),
            NewTick(clientTickID: "2", grade: "V5", gradeScale: .v, style: .send, attempts: 4, climbedAt: during),
        ], memberID: member)
        _ = try fixture.domain.logbook.log(NewTick(clientTickID: "3", grade: "V4", gradeScale: .v, style: .flash, climbedAt: during), memberID: member)
        let jobs = try fixture.domain.renderJobs.jobs(rewardID: first.rewardID).filter { $0.status == .queued }
        #expect(jobs.count == 1, "the second batch joined the redraw already waiting")
        #expect(jobs.first?.availableAt == fixture.clock.now().addingTimeInterval(120))
        #expect(try fixture.domain.renderJobs.claim(owner: worker.owner, limit: 1).isEmpty, "not before logbook.story_refresh_seconds")

        fixture.clock.advance(by: 121)
        let service = try RenderService(queue: fixture.domain.renderJobs, clock: fixture.clock, settings: fixture.settings,
                                        logbook: fixture.domain.logbook)
        let redraw = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner, limit: 1).first)
        #expect(service.request(for: redraw, in: worker).achievementLine == "첫 V5 완등 · 3개 완등")
        #expect(fixture.service.request(for: redraw, in: worker).achievementLine == "클럽과 함께한 첫 클라이밍",
                "without the logbook the line is the check-in's")
        #expect(try fixture.domain.rewards.reward(id: first.rewardID).renderStatus == .ready, "the sticker stays ready meanwhile")
    }
}
