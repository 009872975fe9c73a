import BelayCore
import Foundation

/// A gym's new set as a CSV file: `wall, colour, grade, set_on[, name, setter]`, one problem
/// a row, the header optional. Read whole before anything is written.
enum ProblemSetFile {
    struct Row {
        let line: Int
        let problem: ResolvedProblem
    }

    /// Every row, checked against the gym's grading.
    /// - Throws: `ProblemSetError` (a `DomainError.invalidProblemSet`) listing every row's error with its line.
    static func read(_ text: String, gym: Gym, discipline: Discipline, expectedRemovalOn: String?) throws -> [Row] {
        if let expectedRemovalOn, CalendarDay(expectedRemovalOn) == nil {
            throw DomainError.invalid("expected_removal_on", "An expected removal date is YYYY-MM-DD (got `\(expectedRemovalOn.prefix(20))`)")
        }
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(text)
        } catch let error as CSVSyntaxError {
            throw ProblemSetError(rows: [.init(line: error.line, field: nil, message: error.message)])
        }
        var body = records[...]
        if let first = body.first, first.fields.first?.trimmingCharacters(in: .whitespaces).lowercased() == "wall" { body = body.dropFirst() }
        guard !body.isEmpty else {
            throw ProblemSetError(rows: [.init(line: 1, field: nil, message: "The file has no problems; write one a row: wall, colour, grade, set_on[, name, setter]")])
        }
        guard body.count <= ProblemService.maximumSetRows else {
            throw ProblemSetError(rows: [.init(line: 1, field: nil, message: "A set file has at most \(ProblemService.maximumSetRows) rows (this one has \(body.count)); split it")])
        }
        var rows: [Row] = [], errors: [ProblemSetError.RowError] = []
        var seen: [String: Int] = [:]
        for record in body {
            let fields = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            guard (4...6).contains(fields.count) else {
                errors.append(.init(line: record.line, field: nil, message: "Line \(record.line) has \(fields.count) columns; a row is wall, colour, grade, set_on[, name, setter]"))
                continue
            }
            func optional(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
            let draft = NewProblem(wall: fields[0], discipline: discipline, holdColour: fields[1], grade: fields[2], name: optional(4),
                                   setter: optional(5), setOn: fields[3], expectedRemovalOn: expectedRemovalOn)
            do {
                let problem = try ResolvedProblem(draft, gym: gym)
                if let earlier = seen[problem.naturalKey] {
                    errors.append(.init(line: record.line, field: nil, message: "Line \(record.line) repeats line \(earlier); name the two problems apart (a name or number in column 5)"))
                    continue
                }
                seen[problem.naturalKey] = record.line
                rows.append(Row(line: record.line, problem: problem))
            } catch let error as DomainError {
                errors.append(.init(line: record.line, field: error.field, message: "Line \(record.line): \(error.message)"))
            }
        }
        if !errors.isEmpty { throw ProblemSetError(rows: errors) }
        return rows
    }
}

/// A set file with rows that cannot be added; nothing of it was written.
public struct ProblemSetError: Error, CustomStringConvertible, Sendable {
    public struct RowError: Sendable, Hashable {
        public let line: Int
        /// The column at fault (`grade`, `set_on`, …), when one is.
        public let field: String?
        public let message: String
    }

    public let rows: [RowError]

    /// The refusal as the domain reports it: `invalid_problem_set`.
    public var domainError: DomainError {
        DomainError(.invalidProblemSet, "The set file has \(rows.count) row\(rows.count == 1 ? "" : "s") with errors and nothing was added; fix them and upload the whole file again")
    }

    public var description: String { rows.map(\.message).joined(separator: "\n") }
}
