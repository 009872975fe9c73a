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
