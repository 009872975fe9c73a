import BelayCore
import Foundation

/// A grade read against a gym's grading: a grade of its scale, or one of its colour levels.
struct GymGrade: Sendable {
    /// As the gym writes it.
    let text: String
    let scale: GradeScale?
    let level: GymLevel?
    let range: GradeRange

    /// Reads `text` as a grade of the gym's scale for `axis`, or as one of its levels (by
    /// name in any locale, by position, or by colour).
    /// - Throws: `DomainError.invalidInput` naming `field`, listing what the gym takes.
    static func resolve(_ text: String, axis: GradeAxis, at gym: Gym, field: String) throws -> GymGrade {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        switch gym.grading(axis) {
        case let .scale(scale):
            guard let range = GradeTable.range(of: wanted, in: scale) else {
                throw DomainError.invalid(field, "`\(wanted.prefix(20))` is not a grade of the \(scale.rawValue) scale, which \(gym.name) uses for \(axis.rawValue)s (such as \(GradeTable.names(in: scale).dropFirst(4).prefix(3).joined(separator: ", ")))")
            }
            let name = GradeTable.name(of: range, in: scale)
            return GymGrade(text: name, scale: scale, level: nil, range: range)
        case .circuit:
            let levels = gym.levels(axis)
            let folded = wanted.lowercased()
            let level = levels.first { $0.name.lowercased() == folded || $0.localizedNames.values.contains { $0.lowercased() == folded } }
                ?? Int(wanted).flatMap { position in levels.first { $0.position == position } }
                ?? levels.first { $0.colour.lowercased() == folded }
            guard let level else {
                throw DomainError.invalid(field, "`\(wanted.prefix(20))` is not a level of \(gym.name)'s \(axis.rawValue) circuit; it has \(levels.map(\.name).joined(separator: ", "))")
            }
            return GymGrade(text: level.name, scale: nil, level: level, range: level.range)
        }
    }
}
