import BelayCore
@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The searches held in memory answer exactly what the database's list answers: the same
/// meetups, pages and cursors for every filter and both orders, and every change committed
/// before a search, on whichever engine the run uses.
@Suite struct MeetupSearchIndexTests {
    let fixture: DomainFixture

    init() throws { fixture = try DomainFixture(importCatalog: false) }

    /// A small deterministic generator (xorshift), so that a failure names a world that can be made again.
    struct Dice {
        var state: UInt64
        mutating func next(_ count: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(count))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    static let places: [(name: String, zone: String, latitude: Double, longitude: Double)] = [
        ("Seoul", "Asia/Seoul", 37.55, 126.98), ("Busan", "Asia/Seoul", 35.18, 129.08), ("Tokyo", "Asia/Tokyo", 35.68, 139.77),
        ("London", "Europe/London", 51.51, -0.13),
    ]
    static let titles = ["홍대 볼더링 번개", "강남 리드 연습", "Café crux night", "ボルダリング会 新宿", "Evening bouldering", "강남역 sessions",
                         "Projecting 홍대입구", "週末リード練習"]
    static let descriptions = ["", "After 강남 we eat", "Shoes to lend at the café", "초보 환영", "ジム 新宿 で"]

    /// Meetups over the three weeks around the clock's now: places, levels, tags, sizes; some
    /// full, cancelled, private or hidden; two gyms, one with a Korean name.
    /// Two gyms, one with a Korean name.
    func gyms() throws -> [Gym] {
        let admin = Actor.user(fixture.admin.id, role: .admin)
        return [try fixture.domain.gyms.create(GymDraft(name: "The Climb Gangnam", localizedNames: ["ko": "더클라임 강남점"],
                                                        address: .some("Seoul Gangnam"), country: .some("KR"),
                                                        location: .some((latitude: 37.4979, longitude: 127.0276)), timeZone: "Asia/Seoul"), by: admin),
                try fixture.domain.gyms.create(GymDraft(name: "B-Pump Shibuya", country: .some("JP"),
                                                        location: .some((latitude: 35.658, longitude: 139.7016)), timeZone: "Asia/Tokyo"), by: admin)]
    }

    @discardableResult
    func seed(_ count: Int, gyms: [Gym], dice: inout Dice) throws -> [Int64] {
        let (gangnam, shibuya) = (gyms[0], gyms[1])
        let climber = try fixture.member()
        var made: [Int64] = []
        for index in 0..<count {
            let place = dice.pick(Self.places)
            // From a day ago to three weeks on, on the half hour: starts often tie, so the ids order them.
            let startsAt = fixture.clock.now().addingTimeInterval(Double(dice.next(22 * 48) - 48) * 1_800)
            let gym = dice.next(6) == 0 ? gangnam : (dice.next(8) == 0 ? shibuya : nil)
            var meetup = NewMeetup(title: dice.pick(Self.titles), description: dice.pick(Self.descriptions), placeName: gym == nil ? "\(place.name) wall" : "",
                                   startsAt: startsAt, endsAt: startsAt.addingTimeInterval(Double(1 + dice.next(4)) * 3_600),
                                   timeZone: gym?.timeZone ?? place.zone, capacity: dice.next(5) == 0 ? 1 : 4 + dice.next(10),
                                   hostID: fixture.host.id, gymID: gym?.id)
            if gym == nil, dice.next(10) != 0 {
                meetup.location = GeoPoint(latitude: place.latitude + Double(dice.next(4_001) - 2_000) / 10_000,
                                           longitude: place.longitude + Double(dice.next(4_001) - 2_000) / 10_000)
            }
            switch dice.next(4) {
            case 0:
                meetup.discipline = .bouldering
                let (low, high) = dice.pick([("V0", "V2"), ("V2", "V5"), ("V4", "V7")])
                meetup.level = try MeetupLevel.parse(lowest: low, highest: high, scale: .v, discipline: .bouldering, preferences: LogbookPreferences(), field: "level")
            case 1:
                meetup.discipline = .lead
                let (low, high) = dice.pick([("5.9", "5.10c"), ("5.10a", "5.11d")])
                meetup.level = try MeetupLevel.parse(lowest: low, highest: high, scale: .yds, discipline: .lead, preferences: LogbookPreferences(), field: "level")
            case 2: meetup.discipline = .topRope
            default: break
            }
            meetup.tags = Array(MeetupTag.allCases.filter { _ in dice.next(5) == 0 }.prefix(4))
            meetup.visibility = dice.next(12) == 0 ? .private : .public
            let past = meetup.endsAt <= fixture.clock.now()
            let id = try fixture.domain.meetups.create(meetup, recordPast: past, by: past ? .user(fixture.admin.id, role: .admin) : fixture.hostActor).id
            if !past, meetup.capacity == 1, dice.next(2) == 0 {
                _ = try fixture.domain.attendance.join(meetupID: id, memberID: climber.id, by: .user(climber.id, role: .member))
            }
            if !past, dice.next(15) == 0 { _ = try fixture.domain.meetups.cancel(id: id, by: fixture.hostActor) }
            if dice.next(20) == 0 {
                let now = fixture.clock.now()
                _ = try fixture.pool.write { try ModerationRepository.hideMeetup(id: id, now: now, in: $0) }
            }
            made.append(id)
            _ = index
        }
        return made
    }

    /// The searches compared: every filter alone, several together, both orders.
    func searches(gymIDs: [Int64]) -> [MeetupSearch] {
        let today = CalendarDay(fixture.clock.now(), in: TimeZone(identifier: "Asia/Seoul")!)
        var searches: [MeetupSearch] = []
        func add(_ change: (inout MeetupSearch) -> Void) {
            var search = MeetupSearch()
            change(&search)
            searches.append(search)
        }
        for text in ["홍대", "강남", "cafe CRUX", "볼더링 홍대", "新宿", "session", "ng", "더클라임"] { add { $0.text = text } }
        for radius in [2.0, 10, 40, 100] {
            add { $0.near = GeoPoint(latitude: 37.52, longitude: 127.0); $0.radiusKilometres = radius }
            add { $0.near = GeoPoint(latitude: 37.52, longitude: 127.0); $0.radiusKilometres = radius; $0.sort = .distance }
        }
        add { $0.near = GeoPoint(latitude: 35.68, longitude: 139.77); $0.sort = .distance; $0.text = "新宿" }
        add { $0.near = GeoPoint(latitude: 35.68, longitude: 139.77); $0.from = today.adding(days: 2); $0.to = today.adding(days: 4) }
        for level in ["V4", "V1", "5.10b", "6a"] { add { $0.level = level } }
        add { $0.level = "V3"; $0.discipline = .bouldering; $0.hasSpots = true }
        for discipline in MeetupDiscipline.allCases { add { $0.discipline = discipline } }
        for tag in [MeetupTag.women, .beginnerFriendly, .coaching] { add { $0.tag = tag } }
        add { $0.hasSpots = true }
        for gym in gymIDs { add { $0.gymID = gym } }
        add { $0.from = today.adding(days: 3) }
        add { $0.from = today; $0.to = today }
        add { $0.from = today.adding(days: 1); $0.to = today.adding(days: 7); $0.text = "강남" }
        add { $0.near = GeoPoint(latitude: 37.55, longitude: 126.98); $0.radiusKilometres = 30; $0.from = today.adding(days: 5);
              $0.to = today.adding(days: 6); $0.hasSpots = true; $0.level = "V4" }
        add { $0.near = GeoPoint(latitude: 51.5, longitude: -0.1); $0.sort = .distance; $0.hasSpots = true; $0.tag = .women }
        return searches
    }

    /// Walks every page of `search` through the list and through the index, side by side,
    /// recording each difference: ids of a page, or its cursor.
    func compare(_ search: MeetupSearch, limit: Int, index: MeetupSearchIndex? = nil, _ location: SourceLocation = #_sourceLocation) throws {
        var query = MeetupQuery(limit: limit)
        query.search = search
        var pages = 0
        repeat {
            let listed = try fixture.domain.meetups.list(query)
            let found = try index.map { try fixture.domain.meetups.search(query, preferences: LogbookPreferences(), in: $0) }
                ?? fixture.domain.meetups.search(query)
            #expect(found.items.map(\.id) == listed.items.map(\.id), "\(search.key) limit \(limit), page \(pages + 1)", sourceLocation: location)
            #expect(found.nextCursor == listed.nextCursor, "\(search.key) limit \(limit), page \(pages + 1)", sourceLocation: location)
            if let near = search.near {
                for (hit, meetup) in zip(found.items, listed.items) {
                    #expect(hit.distanceKilometres == meetup.location.map(near.distanceKilometres(to:)), sourceLocation: location)
                }
            }
            query.cursor = listed.nextCursor
            pages += 1
        } while query.cursor != nil && pages < 200
    }

    @Test func everySearchFindsWhatTheDatabasesListFindsPageByPage() throws {
        var dice = Dice(state: 0x5EA2C4)
        let gyms = try gyms()
        try seed(260, gyms: gyms, dice: &dice)
        let searches = searches(gymIDs: gyms.map(\.id))
        for search in searches {
            for limit in [1, 4, 25] { try compare(search, limit: limit) }
        }
        // A day on, the meetups that have ended since leave both.
        fixture.clock.advance(by: 86_400 + 1_800)
        for search in searches { try compare(search, limit: 7) }
    }

    @Test func aSearchSeesEveryChangeCommittedBeforeIt() throws {
        var dice = Dice(state: 0xC0FFEE)
        let gyms = try gyms()
        try seed(40, gyms: gyms, dice: &dice)
        let word = MeetupSearch.with { $0.text = "토요일" }
        let nearby = MeetupSearch.with { $0.near = GeoPoint(latitude: 33.45, longitude: 126.56); $0.radiusKilometres = 5; $0.hasSpots = true }
        #expect(try ids(word).isEmpty)
        let start = fixture.clock.now().addingTimeInterval(86_400)
        var draft = NewMeetup(title: "제주 토요일 볼더링", placeName: "Jeju wall", startsAt: start, endsAt: start.addingTimeInterval(7_200),
                              timeZone: "Asia/Seoul", capacity: 1, hostID: fixture.host.id)
        draft.location = GeoPoint(latitude: 33.45, longitude: 126.56)
        let meetup = try fixture.domain.meetups.create(draft, by: fixture.hostActor)
        #expect(try ids(word) == [meetup.id])
        #expect(try ids(nearby) == [meetup.id])

        // Its last place taken: no longer "with places".
        let climber = try fixture.member("jeju")
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: climber.id, by: .user(climber.id, role: .member))
        #expect(try ids(nearby).isEmpty)
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: climber.id, by: .user(climber.id, role: .member))
        #expect(try ids(nearby) == [meetup.id])

        // A new title: found by its new words only.
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(title: "제주 일요일 볼더링"), by: fixture.hostActor)
        #expect(try ids(word).isEmpty)
        #expect(try ids(MeetupSearch.with { $0.text = "일요일" }) == [meetup.id])

        // Made private, then public again; hidden by a moderator; cancelled.
        var privately = MeetupChanges()
        privately.visibility = .private
        _ = try fixture.domain.meetups.update(id: meetup.id, privately, by: fixture.hostActor)
        #expect(try ids(nearby).isEmpty)
        var publicly = MeetupChanges()
        publicly.visibility = .public
        _ = try fixture.domain.meetups.update(id: meetup.id, publicly, by: fixture.hostActor)
        #expect(try ids(nearby) == [meetup.id])
        let now = fixture.clock.now()
        _ = try fixture.pool.write { try ModerationRepository.hideMeetup(id: meetup.id, now: now, in: $0) }
        #expect(try ids(nearby).isEmpty)
        _ = try fixture.pool.write { try $0.execute("UPDATE meetups SET hidden_at = NULL WHERE id = ?", [meetup.id]) }
        #expect(try ids(nearby) == [meetup.id])
        _ = try fixture.domain.meetups.cancel(id: meetup.id, by: fixture.hostActor)
        #expect(try ids(nearby).isEmpty)

        // A gym's new name reaches the text of its meetups.
        let gym = gyms[0]
        let atGym = MeetupSearch.with { $0.text = "성수" }
        #expect(try ids(atGym).isEmpty)
        _ = try fixture.domain.gyms.update(id: gym.id, GymDraft(localizedNames: ["ko": "더클라임 성수점"]), by: .user(fixture.admin.id, role: .admin))
        let listed = try listedIDs(atGym)
        #expect(!listed.isEmpty)
        #expect(try ids(atGym) == listed)
    }

    /// A change this process did not commit (the command line, another node) is not asked
    /// about on every search, but shows within a tenth of a second.
    @Test func aChangeFromAnotherProcessShowsWithinATenthOfASecond() throws {
        var dice = Dice(state: 0xFACADE)
        try seed(20, gyms: try gyms(), dice: &dice)
        let renamed = try #require(try fixture.domain.meetups.list(MeetupQuery(limit: 50)).items.first { $0.status == .scheduled && $0.visibility == .public && $0.hiddenAt == nil })
        let word = MeetupSearch.with { $0.text = "다른프로세스" }
        #expect(try ids(word).isEmpty)
        // The revisions just below the first load's are read again for two seconds (for
        // transactions still committing then); after that, only this process's commits ask.
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try ids(word).isEmpty)
        let elsewhere = try TestDatabase.reopen(fixture.pool.location)
        let title = "다른프로세스 세션"
        let text = SearchText.folded(title + "\n" + renamed.placeName)
        try elsewhere.write { db in
            try db.execute("UPDATE meetups SET title = ?, search_title = ?, search_text = ?, search_grams = ? WHERE id = ?",
                           [title, SearchText.folded(title), text, SearchText.indexedGrams(ofFolded: text), renamed.id])
        }
        Thread.sleep(forTimeInterval: 0.15)
        #expect(try ids(word) == [renamed.id])
    }

    @Test func changesSortedInOnAnotherThreadLeaveTheAnswersAsTheyWere() throws {
        var dice = Dice(state: 0xAB1DE)
        let gyms = try gyms()
        try seed(60, gyms: gyms, dice: &dice)
        let index = MeetupSearchIndex(changesBeforeRebuild: 8)
        let searches = searches(gymIDs: gyms.map(\.id))
        for search in searches { try compare(search, limit: 5, index: index) }
        // Twenty more meetups and twenty edits: more changes than the index keeps beside its sorted entries.
        try seed(20, gyms: gyms, dice: &dice)
        let all = try fixture.domain.meetups.list(MeetupQuery(limit: 200)).items.filter { $0.status == .scheduled }
        for meetup in all.prefix(20) {
            _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(capacity: meetup.capacity + 3), by: fixture.hostActor)
        }
        for search in searches { try compare(search, limit: 5, index: index) }
        let deadline = Date().addingTimeInterval(20)
        while index.heldChanges > 8, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(index.heldChanges <= 8, "the changes were sorted into the entries")
        for search in searches { try compare(search, limit: 5, index: index) }
    }

    private func ids(_ search: MeetupSearch) throws -> [Int64] {
        var query = MeetupQuery(limit: 50)
        query.search = search
        let found = try fixture.domain.meetups.search(query).items.map(\.id)
        #expect(found == (try listedIDs(search)), "the list and the index agree on \(search.key)")
        return found
    }

    private func listedIDs(_ search: MeetupSearch) throws -> [Int64] {
        var query = MeetupQuery(limit: 50)
        query.search = search
        return try fixture.domain.meetups.list(query).items.map(\.id)
    }
}

extension MeetupSearch {
    /// A search with `change` made to the empty one.
    static func with(_ change: (inout MeetupSearch) -> Void) -> MeetupSearch {
        var search = MeetupSearch()
        change(&search)
        return search
    }
}
