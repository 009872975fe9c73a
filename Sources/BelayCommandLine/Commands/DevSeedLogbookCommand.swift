import BelayCore
import Foundation
import BelayArguments
import BelayDomain

extension DevCommand {
    /// `belay dev seed-logbook`: a member's real-looking climbing, for trying the logbook's
    /// answers and pictures.
    struct SeedLogbook: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "seed-logbook",
                abstract: "Give a member sessions of climbing at three Korean gyms with colour circuits.",
                discussion: """
                Adds the gyms (once) and, for each session, the problems on the wall that day and the member's ticks on
                them, through the same rules as the app's ticks (a session's ticks are one batch). The member climbs a
                little harder as the sessions go on. Example: belay dev seed-logbook jisoo --sessions 60
                """
            )
        }

        @Argument(Argument<String>("handle", help: "The member who climbed.")) var handle: String
        @Option("sessions", valueName: "n", default: 60, help: "Sessions, two or three days apart, ending today.") var sessions: Int
        @Flag(.json) var json: Bool

        func validate() throws {
            guard (1...1_000).contains(sessions) else { throw CommandLineError.usage("--sessions must be 1–1000 (got \(sessions))") }
        }

        struct Report: Encodable {
            var gyms: [Int64]
            var sessions: Int
            var ticks: Int
        }

        /// Three circuits as Korean gyms tape them, easiest first: (name, 한국어, colour, lowest, highest).
        static let circuit: [(String, String, String, String, String)] = [
            ("White", "흰색", "#ECEFF1", "VB", "VB"), ("Yellow", "노랑", "#FDD835", "V0", "V0"), ("Orange", "주황", "#FB8C00", "V1", "V1"),
            ("Green", "초록", "#43A047", "V2", "V2"), ("Blue", "파랑", "#1E88E5", "V3", "V3"), ("Red", "빨강", "#E53935", "V4", "V5"),
            ("Purple", "보라", "#8E24AA", "V5", "V6"), ("Grey", "회색", "#757575", "V6", "V7"), ("Brown", "갈색", "#6D4C41", "V7", "V8"),
            ("Black", "검정", "#212121", "V9", "V10"),
        ]
        static let gyms: [(String, String, Double, Double)] = [
            ("The Climb Gangnam", "더클라임 강남점", 37.4979, 127.0276), ("Climbing Park Jongno", "클라이밍파크 종로점", 37.5704, 126.9921),
            ("Seoul Forest Climbing", "서울숲 클라이밍", 37.5445, 127.0448),
        ]

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let domain = services.domain
            let member = try services.user(handle)
            let levels = Self.circuit.map { NewGymLevel(colour: $0.2, name: $0.0, localizedNames: ["ko": $0.1], lowest: $0.3, highest: $0.4, scale: .v) }
            var gymIDs: [Int64] = []
            for (name, korean, latitude, longitude) in Self.gyms {
                if let found = try domain.gyms.list(matching: name, near: nil, limit: 1, cursor: nil).items.first {
                    gymIDs.append(found.id)
                } else {
                    gymIDs.append(try domain.gyms.create(GymDraft(name: name, localizedNames: ["ko": korean], country: "KR",
                                                                   location: (latitude, longitude), timeZone: "Asia/Seoul",
                                                                   boulderGrading: .circuit, boulderLevels: levels), by: .commandLine).id)
                }
            }
            var random = SplitMix(seed: UInt64(member.id))
            let now = context.now()
            var ticks = 0
            for session in 0..<sessions {
                // Sessions end today, two or three days apart, each two hours before this hour.
                let daysAgo = Double((sessions - 1 - session) * 5 / 2)
                let climbedAt = now.addingTimeInterval(-daysAgo * 86_400 - 7_200)
                let gym = gymIDs[session % 3 == 2 ? 1 : (session % 5 == 0 ? 2 : 0)]
                // Stronger with time: the usual top level climbs from Blue to Purple.
                let top = 4 + (session * 3) / max(1, sessions)
                var batch: [NewTick] = []
                for climb in 0..<(5 + Int(random.next() % 6)) {
                    let position = max(1, min(Self.circuit.count, top + 1 - Int(random.next() % 4)))
                    let roll = random.next() % 10
                    let style: TickStyle = position > top ? .attempt : (roll < 3 ? .flash : .send)
                    batch.append(NewTick(clientTickID: "seed-\(session)-\(climb)", gymID: gym, level: String(position), style: style,
                                         attempts: style == .flash ? 1 : 2 + Int(random.next() % 4),
                                         climbedAt: climbedAt.addingTimeInterval(Double(climb) * 500)))
                }
                ticks += try domain.logbook.logBatch(batch, memberID: member.id).filter {
                    if case .created = $0 { return true }
                    return false
                }.count
            }
            if json { return try context.printJSON(Report(gyms: gymIDs, sessions: sessions, ticks: ticks)) }
            context.print("gyms \(gymIDs.map(String.init).joined(separator: ",")), sessions \(sessions), ticks \(ticks)")
        }
    }
}

/// A small deterministic generator, so a seeded logbook is the same every time.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
