import BelayCore
import Foundation

/// A member's climbing over a period: each session, a grade pyramid per axis, the hardest
/// send and flash, and the personal bests that fell in it.
public struct LogbookSummary: Sendable {
    /// One day at one place.
    public struct Session: Sendable, Hashable {
        public let day: String
        public let gymID: Int64?
        public let crag: String?
        public let meetupID: Int64?
        /// Topped climbs (sends, flashes and repeats).
        public let sends: Int
        public let flashes: Int
        /// Ticks of climbs not topped.
        public let attempts: Int
        /// The hardest topped climb of each axis climbed.
        public let hardest: [GradeRange]
    }

    /// One step of a pyramid: a grade of the member's scale (or a colour level's range).
    public struct PyramidStep: Sendable, Hashable {
        public let range: GradeRange
        /// Sends and repeats, flashes apart.
        public let sends: Int
        public let flashes: Int
        /// The colour of the circuit level when every tick of the step was one.
        public let colour: String?
    }

    /// A grade climbed for the first time: a send, or a flash, harder than every one before.
    public struct PersonalBest: Sendable, Hashable {
        public enum Kind: String, Sendable { case send, flash }
        public let axis: GradeAxis
        public let kind: Kind
        public let range: GradeRange
        public let day: String
        public let tickID: Int64
    }

    public struct Axis: Sendable {
        public let axis: GradeAxis
        /// Hardest first.
        public let pyramid: [PyramidStep]
        /// The hardest topped climb of the period, and the hardest flash.
        public internal(set) var hardestSend: Tick?
        public internal(set) var hardestFlash: Tick?
        let hardestSendID: Int64?
        let hardestFlashID: Int64?
    }

    public let from: String?
    public let to: String
    public let sessions: [Session]
    public internal(set) var axes: [Axis]
    public let personalBests: [PersonalBest]
    /// Sessions a week over the period (from its first session when it has no start).
    public let sessionsPerWeek: Double

    /// Sums `ticks` (every tick the viewer may see, of all time, so that a personal best is
    /// measured against everything before it) over `from`…`to`, bucketing grades in `preferences`' scales.
    static func make<T: SummarizedTick>(ticks: [T], from: String?, to: String, preferences: LogbookPreferences) -> LogbookSummary {
        let ordered = ticks.sorted { ($0.climbedOn, $0.climbedAt, $0.id) < ($1.climbedOn, $1.climbedAt, $1.id) }
        let inPeriod = ordered.filter { ($0.climbedOn >= (from ?? "")) && $0.climbedOn <= to }

        var bests: [PersonalBest] = []
        var bestSend: [GradeAxis: Int] = [:], bestFlash: [GradeAxis: Int] = [:]
        for tick in ordered where tick.style.topped {
            let axis = tick.range.axis, score = tick.range.lowest
            let inside = tick.climbedOn >= (from ?? "") && tick.climbedOn <= to
            if score > bestSend[axis, default: -1] {
                bestSend[axis] = score
                if inside { bests.append(PersonalBest(axis: axis, kind: .send, range: tick.range, day: tick.climbedOn, tickID: tick.id)) }
            }
            if tick.style == .flash, score > bestFlash[axis, default: -1] {
                bestFlash[axis] = score
                if inside { bests.append(PersonalBest(axis: axis, kind: .flash, range: tick.range, day: tick.climbedOn, tickID: tick.id)) }
            }
        }

        var sessionOrder: [SessionKey] = []
        var sessionTicks: [SessionKey: [T]] = [:]
        for tick in inPeriod {
            let key = SessionKey(day: tick.climbedOn, gymID: tick.gymID, crag: tick.gymID == nil ? tick.crag : nil)
            if sessionTicks[key] == nil { sessionOrder.append(key) }
            sessionTicks[key, default: []].append(tick)
        }
        let sessions = sessionOrder.reversed().map { key -> Session in
            let group = sessionTicks[key] ?? []
            let hardest = GradeAxis.allCases.compactMap { axis in
                group.filter { $0.style.topped && $0.range.axis == axis }.map(\.range).max { ($0.lowest, $0.highest) < ($1.lowest, $1.highest) }
            }
            return Session(day: key.day, gymID: key.gymID, crag: key.crag, meetupID: group.lazy.compactMap(\.meetupID).first,
                           sends: group.filter { $0.style.topped }.count, flashes: group.filter { $0.style == .flash }.count,
                           attempts: group.filter { $0.style == .attempt }.count, hardest: hardest)
        }

        let axes = GradeAxis.allCases.compactMap { axis -> Axis? in
            let topped = inPeriod.filter { $0.range.axis == axis && $0.style.topped }
            guard !inPeriod.filter({ $0.range.axis == axis }).isEmpty else { return nil }
            let scale = preferences.scale(axis)
            var steps: [String: (range: GradeRange, sends: Int, flashes: Int, colours: Set<String?>)] = [:]
            // A grade's step is the same for every tick of that score: find it once.
            var stepOfScore: [Int: GradeRange] = [:]
            for tick in topped {
                let step: GradeRange
                if tick.levelPosition != nil {
                    step = tick.range
                } else if let known = stepOfScore[tick.range.lowest] {
                    step = known
                } else {
                    step = Self.step(of: tick.range.lowest, in: scale) ?? tick.range
                    stepOfScore[tick.range.lowest] = step
                }
                let name = GradeTable.name(of: step, in: scale)
                var entry = steps[name] ?? (step, 0, 0, [])
                if tick.style == .flash { entry.flashes += 1 } else { entry.sends += 1 }
                entry.colours.insert(tick.levelPosition != nil ? tick.colour : nil)
                steps[name] = entry
            }
            let pyramid = steps.values
                .map { PyramidStep(range: $0.range, sends: $0.sends, flashes: $0.flashes, colour: $0.colours.count == 1 ? $0.colours.first ?? nil : nil) }
                .sorted { ($0.range.lowest, $0.range.highest) > ($1.range.lowest, $1.range.highest) }
            let hardest: ([T]) -> T? = { $0.max { ($0.range.lowest, $0.range.highest, $1.climbedAt) < ($1.range.lowest, $1.range.highest, $0.climbedAt) } }
            let send = hardest(topped), flash = hardest(topped.filter { $0.style == .flash })
            return Axis(axis: axis, pyramid: pyramid, hardestSend: send as? Tick, hardestFlash: flash as? Tick,
                        hardestSendID: send?.id, hardestFlashID: flash?.id)
        }

        let firstDay = from.flatMap(CalendarDay.init) ?? inPeriod.first.flatMap { CalendarDay($0.climbedOn) }
        var perWeek = 0.0
        if let firstDay, let lastDay = CalendarDay(to) {
            let weeks = max(1.0, Double(lastDay.daysSinceEpoch - firstDay.daysSinceEpoch + 1) / 7)
            perWeek = (Double(sessions.count) / weeks * 100).rounded() / 100
        }
        return LogbookSummary(from: from, to: to, sessions: sessions, axes: axes, personalBests: bests.reversed(), sessionsPerWeek: perWeek)
    }

    /// A session: a day at a gym, or at a crag.
    struct SessionKey: Hashable {
        let day: String
        let gymID: Int64?
        let crag: String?
    }

    /// The grade of `scale` that holds `score`, as one pyramid step.
    private static func step(of score: Int, in scale: GradeScale) -> GradeRange? {
        GradeTable.range(of: GradeTable.name(of: score, in: scale), in: scale)
    }
}

/// What a summary reads of a tick: a whole `Tick`, or the few columns `TickFacts` decodes
/// when only the sums are needed (a member's whole history, thousands of rows).
protocol SummarizedTick {
    var id: Int64 { get }
    var climbedOn: String { get }
    var climbedAt: Date { get }
    var style: TickStyle { get }
    var range: GradeRange { get }
    var gymID: Int64? { get }
    var crag: String? { get }
    var meetupID: Int64? { get }
    var levelPosition: Int? { get }
    var colour: String? { get }
}

extension Tick: SummarizedTick {}

/// The columns of a tick a summary sums.
struct TickFacts: SummarizedTick {
    let id: Int64
    let climbedOn: String
    let climbedAt: Date
    let style: TickStyle
    let range: GradeRange
    let gymID: Int64?
    let crag: String?
    let meetupID: Int64?
    let levelPosition: Int?
    let colour: String?
}
