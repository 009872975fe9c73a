import BelayCore
import BelayDomain
import Foundation

/// A member's ticks as CSV for spreadsheets and other logbooks: one row a tick, newest day
/// first, the grade as it was and in the member's scale.
public enum TickCSV {
    /// The column names.
    public static let header = ["day", "climbed_at", "kind", "discipline", "grade", "grade_scale", "grade_in_my_scale", "colour",
                                "route_name", "crag", "gym_id", "problem_id", "meetup_id", "style", "attempts", "stars", "felt_grade",
                                "visibility", "note", "client_tick_id"]

    /// The whole file.
    public static func text(_ ticks: [Tick], preferences: LogbookPreferences) -> String {
        CSVWriter.text(header: header, rows: ticks.map { tick in
            [tick.climbedOn, RFC3339.string(from: tick.climbedAt, fraction: .none), tick.kind.rawValue, tick.discipline.rawValue, tick.grade,
             tick.gradeScale?.rawValue ?? "", GradeTable.display(tick.range, from: tick.gradeScale, in: preferences.scale(tick.range.axis)),
             tick.colour ?? "", tick.routeName ?? "", tick.crag ?? "", tick.gymID.map(String.init) ?? "", tick.problemID.map(String.init) ?? "",
             tick.meetupID.map(String.init) ?? "", tick.style.rawValue, String(tick.attempts), tick.stars.map(String.init) ?? "",
             tick.feltGrade ?? "", tick.visibility.rawValue, tick.note ?? "", tick.clientTickID]
        })
    }
}

/// What importing another logbook's file did.
public struct TickImportOutcomeBody: JSONRepresentable {
    public let outcome: TickImportOutcome

    public init(outcome: TickImportOutcome) {
        self.outcome = outcome
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("format", outcome.format)
            json.member("rows", outcome.rows)
            json.member("added", outcome.added)
            json.member("unchanged", outcome.unchanged)
            json.member("dry_run", outcome.dryRun)
        }
    }
}
