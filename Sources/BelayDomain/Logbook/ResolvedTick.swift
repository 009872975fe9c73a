import BelayCore
import BelayStorage
import Foundation

/// A tick read against the problem, gym or scale it names: what the repository writes.
struct ResolvedTick: Sendable {
    let clientTickID: String
    let kind: TickKind
    let problemID: Int64?
    let gymID: Int64?
    let meetupID: Int64?
    let discipline: Discipline
    let grade: String
    let gradeScale: GradeScale?
    let levelPosition: Int?
    let colour: String?
    let range: GradeRange
    let routeName: String?
    let crag: String?
    let style: TickStyle
    let attempts: Int
    let climbedAt: Date
    let climbedOn: String
    let note: String?
    let stars: Int?
    let feltGrade: String?
    let feltScore: Int?
    let visibility: TickVisibility

    /// How far ahead of the server's clock a tick's time may be (a phone's clock runs fast).
    static let futureLeeway: TimeInterval = 600

    /// - Throws: `DomainError`: `invalid_input` naming the field, `problem_not_found`, `gym_not_found`.
    /// - Parameter meetups: the member's checked-in meetups around the tick's time, when the
    ///   caller read them for a whole batch; nil reads the one holding the tick.
    init(_ tick: NewTick, memberID: Int64, preferences: LogbookPreferences, checkIn: CheckInPolicy, clubTimeZone: TimeZone,
         now: Date, meetups: [CheckedInMeetup]? = nil, in db: Database) throws {
        try TextRule.clientTickID.check(tick.clientTickID)
        try TextRule.tickNote.check(tick.note)
        try TextRule.tickRouteName.check(tick.routeName)
        try TextRule.tickCrag.check(tick.crag)
        let climbedAt = tick.climbedAt ?? now
        guard climbedAt <= now.addingTimeInterval(Self.futureLeeway) else {
            throw DomainError.invalid("climbed_at", "A climb cannot be logged for a time still to come (\(RFC3339.string(from: climbedAt, fraction: .none))); check the phone's clock")
        }
        guard climbedAt.timeIntervalSince1970 >= 0 else { throw DomainError.invalid("climbed_at", "A climb is logged for a time after 1970") }
        let attempts = try Self.attempts(tick.attempts, style: tick.style)
        try Self.checkStars(tick.stars)

        let named = [tick.problemID != nil, tick.gymID != nil, tick.gymID == nil && tick.grade != nil].filter { $0 }.count
        guard named == 1 else {
            throw DomainError.invalid("problem_id", "A tick names one of: a problem (`problem_id`), a gym and its level or grade (`gym_id` with `level` or `grade`), or an outdoor climb (`grade` with `grade_scale`)")
        }
        var gym: Gym?
        var kind: TickKind
        var discipline: Discipline
        var grade: GymGrade
        var colour: String?
        if let problemID = tick.problemID {
            guard let problem = try ProblemRepository.find(id: problemID, in: db) else {
                throw DomainError(.problemNotFound, "No problem has id \(problemID); GET /v1/gyms/{id}/problems lists a gym's")
            }
            let problemGym = try GymService.require(problem.gymID, in: db)
            gym = problemGym
            kind = .problem
            discipline = problem.discipline
            let level = problem.levelPosition.flatMap { position in problemGym.levels(discipline.axis).first { $0.position == position } }
            let scale: GradeScale? = if case let .scale(scale) = problemGym.grading(discipline.axis) { scale } else { nil }
            grade = GymGrade(text: problem.grade, scale: level == nil ? scale : nil, level: level, range: problem.range)
            colour = level?.colour ?? problem.holdColour
        } else if let gymID = tick.gymID {
            let levelGym = try GymService.require(gymID, in: db)
            gym = levelGym
            kind = .level
            discipline = tick.discipline ?? .boulder
            guard let text = tick.level ?? tick.grade else {
                throw DomainError.invalid("level", "A tick at a gym without a problem names its level (a colour of the gym's circuit) or grade")
            }
            grade = try GymGrade.resolve(text, axis: discipline.axis, at: levelGym, field: tick.level != nil ? "level" : "grade")
            colour = grade.level?.colour
        } else {
            kind = .outdoor
            guard let text = tick.grade, let scale = tick.gradeScale else {
                throw DomainError.invalid("grade_scale", "An outdoor tick gives its grade and the scale it is in (`grade_scale`: \(GradeScale.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            discipline = tick.discipline ?? (scale.axis == .boulder ? .boulder : .lead)
            guard discipline.axis == scale.axis else {
                throw DomainError.invalid("grade_scale", "\(scale.rawValue) grades \(scale.axis.rawValue)s, and a \(discipline.rawValue) climb is graded as a \(discipline.axis.rawValue)")
            }
            guard let range = GradeTable.range(of: text, in: scale) else {
                throw DomainError.invalid("grade", "`\(text.prefix(20))` is not a grade of the \(scale.rawValue) scale")
            }
            grade = GymGrade(text: text.trimmingCharacters(in: .whitespaces), scale: scale, level: nil, range: range)
        }
        if let gym, tick.discipline != nil, tick.problemID != nil, tick.discipline != discipline {
            throw DomainError.invalid("discipline", "Problem \(tick.problemID ?? 0) at \(gym.name) is a \(discipline.rawValue); leave `discipline` out")
        }

        let feltScore = try Self.feltScore(tick.feltGrade, axis: discipline.axis, scale: grade.scale, preferences: preferences)

        let meetup: (id: Int64, timeZone: String)?
        if let meetups {
            meetup = CheckedInMeetup.holding(climbedAt, in: meetups).map { ($0.id, $0.timeZone) }
        } else {
            meetup = try TickRepository.meetupCheckedIn(memberID: memberID, at: climbedAt,
                                                        opensBefore: TimeInterval(checkIn.opensMinutesBeforeStart * 60),
                                                        closesAfter: TimeInterval(checkIn.closesMinutesAfterEnd * 60), in: db)
        }
        let zone = gym.flatMap { TimeZone(identifier: $0.timeZone) } ?? meetup.flatMap { TimeZone(identifier: $0.timeZone) } ?? clubTimeZone

        clientTickID = tick.clientTickID
        self.kind = kind
        problemID = tick.problemID
        gymID = gym?.id
        meetupID = meetup?.id
        self.discipline = discipline
        self.grade = grade.text
        gradeScale = grade.scale
        levelPosition = grade.level?.position
        self.colour = colour
        range = grade.range
        routeName = tick.routeName.flatMap { $0.isEmpty ? nil : $0 }
        crag = tick.crag.flatMap { $0.isEmpty ? nil : $0 }
        style = tick.style
        self.attempts = attempts
        self.climbedAt = climbedAt
        climbedOn = CalendarDay(climbedAt, in: zone).description
        note = tick.note.flatMap { $0.isEmpty ? nil : $0 }
        stars = tick.stars
        feltGrade = tick.feltGrade
        self.feltScore = feltScore
        visibility = tick.visibility ?? preferences.defaultVisibility
    }

    /// The attempts of a climb of `style`: a flash has 1, a send at least 2 (2 when not given).
    /// - Throws: `DomainError.invalidInput` (`attempts`).
    static func attempts(_ given: Int?, style: TickStyle) throws -> Int {
        switch (style, given) {
        case (.flash, nil), (.flash, 1?): return 1
        case (.flash, let given?): throw DomainError.invalid("attempts", "A flash is topped on the first try, so it has 1 attempt (got \(given)); log it as a send")
        case (.send, 1?): throw DomainError.invalid("attempts", "A send on the first try is a flash; log it with style flash")
        case (_, let given?) where !(1...999).contains(given): throw DomainError.invalid("attempts", "Attempts are 1 to 999 (got \(given))")
        case (.send, nil): return 2
        case (_, let given): return given ?? 1
        }
    }

    /// - Throws: `DomainError.invalidInput` (`stars`) outside 1…5.
    static func checkStars(_ stars: Int?) throws {
        if let stars, !(1...5).contains(stars) { throw DomainError.invalid("stars", "A rating is 1 to 5 stars (got \(stars))") }
    }

    /// The score of the grade the climber felt, read in the tick's own scale, then theirs, then
    /// any scale of the axis.
    /// - Throws: `DomainError.invalidInput` (`felt_grade`) for no grade of the axis.
    static func feltScore(_ felt: String?, axis: GradeAxis, scale: GradeScale?, preferences: LogbookPreferences) throws -> Int? {
        guard let felt else { return nil }
        let scales = [scale, preferences.scale(axis)].compactMap { $0 } + GradeScale.allCases.filter { $0.axis == axis }
        guard let range = scales.lazy.compactMap({ GradeTable.range(of: felt, in: $0) }).first else {
            throw DomainError.invalid("felt_grade", "`\(felt.prefix(20))` is not a \(axis.rawValue) grade of any scale Belay knows")
        }
        return range.lowest
    }

    /// The tick as stored under `id`, without reading it back.
    func tick(id: Int64, userID: Int64, now: Date) -> Tick {
        // As stored: to the millisecond.
        let now = Date(millisecondsSince1970: now.millisecondsSince1970)
        let climbedAt = Date(millisecondsSince1970: self.climbedAt.millisecondsSince1970)
        return Tick(id: id, userID: userID, clientTickID: clientTickID, kind: kind, problemID: problemID, gymID: gymID, meetupID: meetupID,
             discipline: discipline, grade: grade, gradeScale: gradeScale, levelPosition: levelPosition, colour: colour, range: range,
             routeName: routeName, crag: crag, style: style, attempts: attempts, climbedAt: climbedAt, climbedOn: climbedOn, note: note,
             stars: stars, feltGrade: feltGrade, feltScore: feltScore, visibility: visibility, createdAt: now, updatedAt: now)
    }
}
