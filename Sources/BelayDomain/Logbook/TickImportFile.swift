import BelayCore
import Foundation

/// Another logbook's export read as ticks: theCrag's logbook CSV and Mountain Project's tick
/// export, told apart by their headers. Every tick is an outdoor climb with the grade in its
/// own scale; its `client_tick_id` comes from the row (theCrag's ascent id, else the row's
/// own fields), so importing the same file again adds nothing.
enum TickImportFile {
    /// The formats Belay reads.
    enum Format: String, Sendable {
        case theCrag = "thecrag"
        case mountainProject = "mountain_project"
    }

    struct Row {
        let line: Int
        let tick: NewTick
    }

    /// Every row as a tick, or every row's error.
    /// - Throws: `TickImportError` listing each row that cannot be read, with its line.
    static func read(_ text: String) throws -> (format: Format, rows: [Row]) {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(text)
        } catch let error as CSVSyntaxError {
            throw TickImportError(format: nil, rows: [.init(line: error.line, field: nil, message: error.message)])
        }
        guard let header = records.first else {
            throw TickImportError(format: nil, rows: [.init(line: 1, field: nil, message: "The file is empty; export your logbook from theCrag or your ticks from Mountain Project and send that file")])
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let format: Format
        if names.contains("ascent id") && names.contains("route grade") {
            format = .theCrag
        } else if names.contains("date") && names.contains("rating") && names.contains("lead style") {
            format = .mountainProject
        } else {
            throw TickImportError(format: nil, rows: [.init(line: 1, field: nil, message: "The header (\(header.fields.prefix(6).joined(separator: ","))…) is neither theCrag's logbook export (Ascent ID, Route Grade, …) nor Mountain Project's tick export (Date, Route, Rating, …, Lead Style)")])
        }
        guard records.count - 1 <= LogbookService.maximumImport else {
            throw TickImportError(format: format, rows: [.init(line: 1, field: nil, message: "A file has at most \(LogbookService.maximumImport) ticks (this one has \(records.count - 1)); split it")])
        }
        var rows: [Row] = [], errors: [TickImportError.RowError] = []
        var seen: [String: Int] = [:]
        for record in records.dropFirst() {
            func field(_ name: String) -> String {
                guard let index = names.firstIndex(of: name), index < record.fields.count else { return "" }
                return record.fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
            }
            do {
                var tick = try format == .theCrag ? theCrag(field) : mountainProject(field)
                // Two identical rows are two climbs (a route done twice in a day): each its own id.
                let occurrence = seen[tick.clientTickID, default: 0]
                seen[tick.clientTickID] = occurrence + 1
                if occurrence > 0 { tick.clientTickID += ":\(occurrence + 1)" }
                rows.append(Row(line: record.line, tick: tick))
            } catch let error as DomainError {
                errors.append(.init(line: record.line, field: error.field, message: "Line \(record.line): \(error.message)"))
            }
        }
        if !errors.isEmpty { throw TickImportError(format: format, rows: errors) }
        return (format, rows)
    }

    private static func theCrag(_ field: (String) -> String) throws -> NewTick {
        let ascentID = field("ascent id")
        guard !ascentID.isEmpty else { throw DomainError.invalid("ascent id", "The row has no Ascent ID") }
        let gear = (field("ascent gear style").isEmpty ? field("route gear style") : field("ascent gear style")).lowercased()
        let type = field("ascent type").lowercased()
        let discipline: Discipline = gear == "boulder" ? .boulder : (type.contains("top rope") || type == "second" ? .topRope : .lead)
        let style: TickStyle = if type.contains("onsight") || type.contains("flash") { .flash }
            else if ["attempt", "working", "hang dog", "retreat", "dogged"].contains(where: type.contains) { .attempt }
            else if type.contains("repeat") { .repeat }
            else { .send }
        let grade = try grade(field("ascent grade").isEmpty ? field("route grade") : field("ascent grade"), discipline: discipline)
        let day = String(field("ascent date").prefix(10))
        return NewTick(clientTickID: "thecrag:" + ascentID, discipline: discipline, grade: grade.text, gradeScale: grade.scale,
                       routeName: field("route name").prefix(200).description, crag: field("crag path").isEmpty ? field("crag name") : field("crag path"),
                       style: style, attempts: style == .send ? nil : (style == .flash ? 1 : nil), climbedAt: try date(day),
                       note: field("comment").isEmpty ? nil : field("comment"), visibility: nil)
    }

    private static func mountainProject(_ field: (String) -> String) throws -> NewTick {
        let routeType = field("route type").lowercased()
        let style = field("style").lowercased(), lead = field("lead style").lowercased()
        let discipline: Discipline = routeType.contains("boulder") ? .boulder : (style == "tr" || style == "follow" ? .topRope : .lead)
        let tickStyle: TickStyle = if lead == "onsight" || lead == "flash" || style == "flash" { .flash }
            else if lead.contains("fell") || lead.contains("hung") || style == "attempt" { .attempt }
            else { .send }
        let grade = try grade(field("rating"), discipline: discipline)
        let stars = Int(field("your stars")).flatMap { (0...4).contains($0) ? $0 + 1 : nil }
        let identity = [field("date"), field("route"), field("url"), field("style"), field("lead style"), field("notes")].joined(separator: "\u{1F}")
        let note = field("notes")
        return NewTick(clientTickID: "mp:" + String(ContentDigest.hex(of: identity).prefix(32)), discipline: discipline,
                       grade: grade.text, gradeScale: grade.scale, routeName: field("route").prefix(200).description,
                       crag: field("location").isEmpty ? nil : String(field("location").suffix(200)), style: tickStyle,
                       attempts: nil, climbedAt: try date(field("date")), note: note.isEmpty ? nil : String(note.prefix(2_000)),
                       stars: stars, visibility: nil)
    }

    /// The grade of a row, its scale told from its form: `V3`, `V3-4` and `VB` are V; `5.10a`,
    /// `5.10-`, `5.8+` are YDS; `6a+` is Font for a boulder and French for a route; a bare
    /// number is Ewbank. A trailing protection rating (`PG13`, `R`, `X`) is dropped.
    static func grade(_ text: String, discipline: Discipline) throws -> (text: String, scale: GradeScale) {
        let first = text.split(separator: " ").first.map(String.init) ?? ""
        guard !first.isEmpty else { throw DomainError.invalid("grade", "The row has no grade") }
        let candidates: [GradeScale] = if first.uppercased().hasPrefix("V") { [.v] }
            else if first.hasPrefix("5.") { [.yds] }
            else if discipline == .boulder { [.font] }
            else { [.french, .ewbank, .uiaa] }
        var normalized = first
        if normalized.hasPrefix("5."), normalized.last == "+" || normalized.last == "-", Int(normalized.dropFirst(2).dropLast()).map({ $0 < 10 }) == true {
            normalized.removeLast()  // 5.8+ and 5.9- have no letters to take half of
        }
        for scale in candidates where scale.axis == discipline.axis && GradeTable.range(of: normalized, in: scale) != nil {
            return (normalized, scale)
        }
        throw DomainError.invalid("grade", "`\(text.prefix(20))` is not a \(discipline.axis.rawValue) grade Belay can read (V, Font, YDS, French, UIAA or Ewbank)")
    }

    /// Noon UTC of the day `text` names (`YYYY-MM-DD`), so that the day stays the same in any zone within ±12 h.
    private static func date(_ text: String) throws -> Date {
        guard let day = CalendarDay(text) else {
            throw DomainError.invalid("date", text.isEmpty ? "The tick has no date; give it the day it was climbed, YYYY-MM-DD" : "`\(text.prefix(20))` is not a day, YYYY-MM-DD")
        }
        return Date(timeIntervalSince1970: TimeInterval(day.daysSinceEpoch) * 86_400 + 43_200)
    }
}

/// An import file with rows that cannot be logged; nothing of it was written.
public struct TickImportError: Error, CustomStringConvertible, Sendable {
    public struct RowError: Sendable, Hashable {
        public let line: Int
        public let field: String?
        public let message: String
    }

    /// The format the header named, when it named one.
    public let format: String?
    public let rows: [RowError]

    init(format: TickImportFile.Format?, rows: [RowError]) {
        self.format = format?.rawValue
        self.rows = rows
    }

    public var description: String { rows.map(\.message).joined(separator: "\n") }
}

/// What importing a file did, or on a dry run would do.
public struct TickImportOutcome: Sendable, Hashable {
    /// `thecrag` or `mountain_project`.
    public let format: String
    public let rows: Int
    public let added: Int
    /// Rows logged before (the same file imported again).
    public let unchanged: Int
    public let dryRun: Bool

    public init(format: String, rows: Int, added: Int, unchanged: Int, dryRun: Bool) {
        self.format = format
        self.rows = rows
        self.added = added
        self.unchanged = unchanged
        self.dryRun = dryRun
    }
}
