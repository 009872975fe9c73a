import BelayCore
import Foundation

/// A problem whose grade was read against its gym's grading: what the repository writes.
struct ResolvedProblem: Sendable {
    let wall: String
    let discipline: Discipline
    let holdColour: String
    /// The grade as the gym writes it (a scale's own spelling, or the level's name).
    let grade: String
    let levelPosition: Int?
    let range: GradeRange
    let name: String?
    let setter: String?
    let setOn: String
    let expectedRemovalOn: String?

    /// What makes two rows the same problem: a set file uploaded twice adds nothing.
    var naturalKey: String {
        [wall, discipline.rawValue, holdColour, grade, setOn, name ?? ""].map { $0.lowercased() }.joined(separator: "\u{1F}")
    }

    /// Checks `problem` against `gym`'s grading.
    /// - Throws: `DomainError.invalidInput` naming the field.
    init(_ problem: NewProblem, gym: Gym) throws {
        let wall = problem.wall.trimmingCharacters(in: .whitespaces)
        try TextRule.problemWall.check(wall)
        let colour = problem.holdColour.trimmingCharacters(in: .whitespaces)
        try TextRule.problemHoldColour.check(colour)
        try TextRule.problemName.check(problem.name)
        try TextRule.problemSetter.check(problem.setter)
        guard CalendarDay(problem.setOn) != nil else {
            throw DomainError.invalid("set_on", "A set date is YYYY-MM-DD, such as 2026-11-29 (got `\(problem.setOn.prefix(20))`)")
        }
        if let removal = problem.expectedRemovalOn {
            guard CalendarDay(removal) != nil else {
                throw DomainError.invalid("expected_removal_on", "An expected removal date is YYYY-MM-DD (got `\(removal.prefix(20))`)")
            }
            guard removal >= problem.setOn else {
                throw DomainError.invalid("expected_removal_on", "The expected removal date \(removal) is before the set date \(problem.setOn)")
            }
        }
        let grade = try GymGrade.resolve(problem.grade, axis: problem.discipline.axis, at: gym, field: "grade")
        self.wall = wall
        discipline = problem.discipline
        holdColour = colour
        self.grade = grade.text
        levelPosition = grade.level?.position
        range = grade.range
        name = problem.name.flatMap { $0.isEmpty ? nil : $0 }
        setter = problem.setter.flatMap { $0.isEmpty ? nil : $0 }
        setOn = problem.setOn
        expectedRemovalOn = problem.expectedRemovalOn
    }
}
