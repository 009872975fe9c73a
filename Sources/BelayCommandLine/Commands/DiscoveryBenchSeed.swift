import Foundation
import BelayCore
import BelayDomain

/// The meetups `bench/http`'s search rows look through: gyms across Korea and Japan, and
/// meetups at them over two years (the first year past, the second to come), with the mix of
/// disciplines, levels, tags, sizes and titles a club's members write. Every number comes from a
/// seeded generator, so two databases seeded alike answer the same searches alike.
struct DiscoveryBenchSeed {
    /// What the search rows ask for, read back by the benchmark.
    struct Report: Encodable {
        var gyms: Int
        var meetups: Int
        /// `LAT,LON` of a gym in central Seoul, where the "near me" search stands.
        var near: String
        /// The coming Saturday and Sunday in Seoul (`YYYY-MM-DD`).
        var weekendFrom: String
        var weekendTo: String
        /// A grade the level filter asks for.
        var level: String
        /// The path of a published meetup page (`/m/{slug}`).
        var pagePath: String
    }

    let domain: DomainServices
    let gymCount: Int
    let meetupCount: Int
    let now: Date

    /// Cities with the districts their gyms are named after, and a centre to scatter them around.
    private struct City {
        let name: String
        let latitude: Double
        let longitude: Double
        let zone: String
        let country: String
        let districts: [String]
        /// How many of the gyms are here, out of the weights' sum (Seoul and Tokyo have the most).
        let weight: Int
    }

    private static let cities: [City] = [
        City(name: "서울", latitude: 37.5326, longitude: 127.0246, zone: "Asia/Seoul", country: "KR",
             districts: ["강남", "홍대", "신림", "건대", "잠실", "성수", "마포", "종로", "영등포", "노원", "신촌", "사당"], weight: 30),
        City(name: "부산", latitude: 35.1631, longitude: 129.0530, zone: "Asia/Seoul", country: "KR",
             districts: ["서면", "해운대", "광안리", "남포", "센텀"], weight: 8),
        City(name: "대구", latitude: 35.8714, longitude: 128.6014, zone: "Asia/Seoul", country: "KR", districts: ["동성로", "수성", "칠곡"], weight: 5),
        City(name: "대전", latitude: 36.3504, longitude: 127.3845, zone: "Asia/Seoul", country: "KR", districts: ["둔산", "유성"], weight: 4),
        City(name: "광주", latitude: 35.1595, longitude: 126.8526, zone: "Asia/Seoul", country: "KR", districts: ["상무", "첨단"], weight: 3),
        City(name: "東京", latitude: 35.6812, longitude: 139.7671, zone: "Asia/Tokyo", country: "JP",
             districts: ["渋谷", "新宿", "池袋", "秋葉原", "吉祥寺", "品川", "上野", "中目黒"], weight: 25),
        City(name: "大阪", latitude: 34.6937, longitude: 135.5023, zone: "Asia/Tokyo", country: "JP", districts: ["梅田", "難波", "天王寺", "心斎橋"], weight: 12),
        City(name: "名古屋", latitude: 35.1815, longitude: 136.9066, zone: "Asia/Tokyo", country: "JP", districts: ["栄", "名駅"], weight: 5),
        City(name: "福岡", latitude: 33.5904, longitude: 130.4017, zone: "Asia/Tokyo", country: "JP", districts: ["天神", "博多"], weight: 4),
        City(name: "札幌", latitude: 43.0618, longitude: 141.3545, zone: "Asia/Tokyo", country: "JP", districts: ["大通", "すすきの"], weight: 4),
    ]
    private static let koreanBrands = ["더클라임", "클라이밍파크", "볼더프렌즈", "서울숲클라이밍", "락트리"]
    private static let japaneseBrands = ["ボルダリングジム", "クライミングジム", "B-PUMP", "ベースキャンプ"]
    private static let koreanTitles = ["볼더링 번개", "퇴근 후 볼더링", "초보 환영 세션", "주말 리드 클라이밍", "같이 프로젝트 해요", "여성 클라이머 모임"]
    private static let japaneseTitles = ["ボルダリング会", "初心者歓迎セッション", "週末リード練習", "仕事帰りセッション", "課題を一緒に"]
    private static let latinTitles = ["Evening bouldering", "Café & climb", "Lead practice", "Beginners' night", "Projecting session"]
    /// Boulder levels as (lowest, highest) V grades, and route levels as YDS.
    private static let boulderLevels = [("V0", "V2"), ("V1", "V3"), ("V2", "V5"), ("V3", "V6"), ("V4", "V7"), ("V6", "V9")]
    private static let routeLevels = [("5.8", "5.10a"), ("5.10a", "5.11a"), ("5.10c", "5.11d"), ("5.11a", "5.12b")]

    /// Creates the gyms and meetups and publishes one meetup's page.
    /// - Throws: what the domain services throw (none is expected of these drafts).
    func run(admin: Actor, hosts: [Int64], concurrently: (Int, @escaping @Sendable (Int) throws -> Int64) throws -> [Int64]) throws -> Report {
        var generator = SeededGenerator(seed: 0xBE1A1)
        var gymPlans: [(GymDraft, City)] = []
        for index in 0..<gymCount {
            var pick = Int.random(in: 0..<Self.cities.reduce(0) { $0 + $1.weight }, using: &generator)
            let city = Self.cities.first { pick -= $0.weight; return pick < 0 } ?? Self.cities[0]
            let district = city.districts[Int.random(in: 0..<city.districts.count, using: &generator)]
            let korean = city.country == "KR"
            let brand = (korean ? Self.koreanBrands : Self.japaneseBrands).randomElement(using: &generator) ?? "Gym"
            let name = korean ? "\(brand) \(district)점 \(index + 1)" : "\(brand) \(district) \(index + 1)"
            // Gyms within about 25 km of their city's centre (a quarter of a degree).
            let latitude = city.latitude + Double.random(in: -0.22...0.22, using: &generator)
            let longitude = city.longitude + Double.random(in: -0.28...0.28, using: &generator)
            gymPlans.append((GymDraft(name: name, address: .some("\(city.name) \(district)"), country: .some(city.country),
                                      location: .some((latitude: latitude, longitude: longitude)), timeZone: city.zone), city))
        }
        let plans = gymPlans
        let gymIDs = try concurrently(plans.count) { index in try domain.gyms.create(plans[index].0, by: admin).id }

        // Midnight UTC a year ago: 09:00 UTC is 18:00 in Seoul and Tokyo alike (neither keeps summer time).
        let start = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 365 * 86_400)
        let days = 2 * 365
        var meetupPlans: [(NewMeetup, past: Bool)] = []
        meetupPlans.reserveCapacity(meetupCount)
        for index in 0..<meetupCount {
            let gymIndex = Int.random(in: 0..<gymIDs.count, using: &generator)
            let korean = plans[gymIndex].1.country == "KR"
            let titles = Int.random(in: 0..<5, using: &generator) == 0 ? Self.latinTitles : (korean ? Self.koreanTitles : Self.japaneseTitles)
            let district = plans[gymIndex].0.address??.split(separator: " ").last.map(String.init) ?? ""
            let title = "\(district) \(titles.randomElement(using: &generator) ?? "Session")"
            // Evenings starting from 18:00 to 19:30 local, spread evenly over the two years' days.
            let day = start.addingTimeInterval(Double(index * days / max(1, meetupCount)) * 86_400)
            let startsAt = day.addingTimeInterval(9 * 3_600 + Double(Int.random(in: 0..<4, using: &generator)) * 1_800)
            let disciplines: [MeetupDiscipline] = [.bouldering, .bouldering, .bouldering, .lead, .topRope]
            let discipline = disciplines.randomElement(using: &generator) ?? .bouldering
            let level: MeetupLevel?
            if discipline == .bouldering {
                let (low, high) = Self.boulderLevels.randomElement(using: &generator) ?? ("V0", "V2")
                level = try MeetupLevel.parse(lowest: low, highest: high, scale: .v, discipline: discipline, preferences: LogbookPreferences(), field: "level")
            } else {
                let (low, high) = Self.routeLevels.randomElement(using: &generator) ?? ("5.8", "5.10a")
                level = try MeetupLevel.parse(lowest: low, highest: high, scale: .yds, discipline: discipline, preferences: LogbookPreferences(), field: "level")
            }
            let tags = Array(MeetupTag.allCases.filter { _ in Int.random(in: 0..<6, using: &generator) == 0 }.prefix(3))
            let endsAt = startsAt.addingTimeInterval(3 * 3_600)
            var meetup = NewMeetup(title: title, description: "Chalk and shoes to lend; we climb for about three hours.",
                                   placeName: "", startsAt: startsAt, endsAt: endsAt, timeZone: plans[gymIndex].1.zone,
                                   // A few meetups of one place, most of four to twenty.
                                   capacity: Int.random(in: 0..<8, using: &generator) == 0 ? 1 : Int.random(in: 4...20, using: &generator),
                                   hostID: hosts[index % hosts.count], gymID: gymIDs[gymIndex])
            meetup.discipline = discipline
            meetup.level = level
            meetup.tags = tags
            meetupPlans.append((meetup, past: endsAt <= now))
        }
        let meetups = meetupPlans
        let meetupIDs = try concurrently(meetups.count) { index in
            let (meetup, past) = meetups[index]
            return try domain.meetups.create(meetup, recordPast: past, by: admin).id
        }
        // The meetups of one place to come are full: one member goes to each, so `has_spots` has some to leave out.
        let fullOnes = meetups.indices.filter { !meetups[$0].past && meetups[$0].0.capacity == 1 }.map { meetupIDs[$0] }
        if !fullOnes.isEmpty {
            let climber = try domain.users.createUser(NewUser(handle: "bench-regular-\(String(UInt32.random(in: 0 ... .max), radix: 36))",
                                                              displayName: "Regular Climber"))
            _ = try concurrently(fullOnes.count) { index in
                _ = try domain.attendance.join(meetupID: fullOnes[index], memberID: climber.id, by: .user(climber.id, role: .member))
                return fullOnes[index]
            }
        }

        // Stand in central Seoul, at the first gym there.
        let seoul = plans.firstIndex { $0.1.name == "서울" } ?? 0
        let near = plans[seoul].0.location.flatMap { $0 }.map { String(format: "%.5f,%.5f", $0.latitude, $0.longitude) } ?? "37.5326,127.0246"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul") ?? .gmt
        let saturday = calendar.nextDate(after: now, matching: DateComponents(weekday: 7), matchingPolicy: .nextTime) ?? now
        let sunday = saturday.addingTimeInterval(86_400)
        let day = DateFormatter()
        day.calendar = calendar
        day.timeZone = calendar.timeZone
        day.locale = Locale(identifier: "en_US_POSIX")
        day.dateFormat = "yyyy-MM-dd"

        let upcoming = meetups.indices.first { !meetups[$0].past && meetups[$0].0.capacity > 1 } ?? 0
        let published = try domain.meetups.publishPage(meetupID: meetupIDs[upcoming], showsHost: true, by: admin)
        return Report(gyms: gymIDs.count, meetups: meetupIDs.count, near: near, weekendFrom: day.string(from: saturday),
                      weekendTo: day.string(from: sunday), level: "V4", pagePath: "/m/\(published.page?.slug ?? "")")
    }
}

/// A small deterministic generator (SplitMix64), so that a seeded database is the same every time.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
