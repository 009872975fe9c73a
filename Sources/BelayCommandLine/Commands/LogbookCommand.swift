import Foundation
import BelayArguments
import BelayCore
import BelayComposition
import BelayDomain
import BelayPipeline
import BelayRender
import BelayRepresentations

/// `belay logbook HANDLE`: what a member climbed, newest day first, and the period's summary.
struct LogbookCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "logbook", abstract: "Show what a member climbed: their ticks and the period's summary.",
                             discussion: """
                             The operator sees every tick, private ones included. Example: belay logbook jisoo --from 2026-11-01
                             --import FILE brings in theCrag's logbook export or Mountain Project's tick export as the member's
                             ticks (the whole file is checked first; nothing is written on any error; the same file twice adds nothing).
                             """)
    }

    @Argument(Argument<String>("handle", help: "The member's handle.")) var handle: String
    @OptionalOption("from", valueName: "date", help: "The first day, YYYY-MM-DD (default: the first tick).") var from: String?
    @OptionalOption("to", valueName: "date", help: "The last day, YYYY-MM-DD (default: today in the club's zone).") var to: String?
    @OptionalOption("import", valueName: "file", help: "Import another logbook's CSV export (theCrag, Mountain Project) as the member's ticks.") var importFile: String?
    @Flag("dry-run", help: "With --import: check the file and count, without writing.") var dryRun: Bool
    @OptionalOption("pyramid", valueName: "file", help: "Also draw the period's grade pyramid (1080x1350 PNG) into this file.") var pyramid: String?
    @OptionalOption("recap", valueName: "file", help: "Also draw the period as a 1080x1920 season recap story into this file.") var recap: String?
    @Flag("csv", help: "Print the ticks as CSV (the columns of GET /v1/me/logbook.csv).") var csv: Bool
    @Flag(.json) var json: Bool

    func validate() throws {
        if dryRun && importFile == nil { throw CommandLineError.usage("--dry-run goes with --import FILE") }
        if csv && json { throw CommandLineError.usage("--csv and --json are two ways to print; choose one") }
        for (option, value) in [("--from", from), ("--to", to)] {
            if let value, CalendarDay(value) == nil { throw CommandLineError.usage("\(option) is a day, YYYY-MM-DD (got '\(value)')") }
        }
    }

    func run(_ context: CommandContext) throws {
        let services = try context.services()
        let member = try services.user(handle)
        let logbook = services.domain.logbook
        if let importFile {
            let path = context.absolutePath(importFile)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandLineError.failure("Cannot read \(path); check the path and its permissions.")
            }
            do {
                let outcome = try logbook.importTicks(csv: String(decoding: data, as: UTF8.self), memberID: member.id, dryRun: dryRun)
                context.print("format \(outcome.format), rows \(outcome.rows), \(outcome.dryRun ? "would add" : "added") \(outcome.added), already there \(outcome.unchanged)")
                if outcome.dryRun { context.note("Nothing was imported (--dry-run).") }
                return
            } catch let error as TickImportError {
                throw CommandLineError.failure("Nothing was imported; fix these rows and run it again:\n  " + error.rows.map(\.message).joined(separator: "\n  "))
            }
        }
        let preferences = try logbook.preferences(memberID: member.id)
        let ticks = try ClubServices.all { cursor in
            try logbook.logbook(memberID: member.id, viewerID: member.id, filter: TickFilter(from: from, to: to), limit: 200, cursor: cursor)
        }
        if csv { return context.output.write(TickCSV.text(ticks, preferences: preferences)) }
        let summary = try logbook.summary(memberID: member.id, viewerID: member.id, from: from, to: to)
        if let pyramid {
            let axis = summary.axes.max { $0.pyramid.reduce(0) { $0 + $1.sends + $1.flashes } < $1.pyramid.reduce(0) { $0 + $1.sends + $1.flashes } }
            let content = LogbookPictureService.pyramidContent(axis, summary: summary, name: member.displayName, preferences: preferences,
                                                               locale: services.configuration.club.locale, axisName: axis?.axis ?? .boulder)
            try Self.save(try pictures(services).pyramid(content), to: pyramid, what: "the grade pyramid", context)
        }
        if let recap {
            let language = String(services.configuration.club.locale.prefix(2))
            var gymNames: [Int64: String] = [:]
            for id in Set(summary.sessions.compactMap(\.gymID)) { gymNames[id] = try services.domain.gyms.gym(id: id).name(in: language) }
            let content = LogbookPictureService.recapContent(summary: summary, name: member.displayName, preferences: preferences,
                                                             locale: services.configuration.club.locale) {
                $0.gymID.flatMap { gymNames[$0] } ?? $0.crag ?? "–"
            }
            try Self.save(try pictures(services).recap(content), to: recap, what: "the season recap", context)
        }
        if json {
            return context.printJSON(LogbookSummaryBody(summary: summary, preferences: preferences))
        }
        var table = Table(columns: ["day", "grade", "shown as", "style", "tries", "where", "meetup"])
        var gymNames: [Int64: String] = [:]
        for id in Set(ticks.compactMap(\.gymID)) { gymNames[id] = (try? services.domain.gyms.gym(id: id))?.name ?? "gym \(id)" }
        for tick in ticks {
            let place = tick.routeName.map { "\($0)\(tick.crag.map { " (\($0))" } ?? "")" } ?? tick.crag ?? tick.gymID.flatMap { gymNames[$0] } ?? "-"
            table.append([tick.climbedOn, tick.grade, GradeTable.display(tick.range, from: tick.gradeScale, in: preferences.scale(tick.range.axis)),
                          tick.style.rawValue, String(tick.attempts), place, tick.meetupID.map(String.init) ?? "-"])
        }
        context.printTable(table, emptyMessage: "\(member.handle) has logged no climbs\(from == nil && to == nil ? "" : " in that period").")
        guard !ticks.isEmpty else { return }
        for axis in summary.axes {
            let scale = preferences.scale(axis.axis)
            let pyramid = axis.pyramid.map { "\(GradeTable.name(of: $0.range, in: scale)) ×\($0.sends + $0.flashes)" }.joined(separator: ", ")
            let hardest = axis.hardestSend.map { GradeTable.display($0.range, from: $0.gradeScale, in: scale) } ?? "-"
            context.note("\(axis.axis.rawValue)s: hardest send \(hardest); \(pyramid)")
        }
        context.note("\(Plural.counted(summary.sessions.count, "session")), \(summary.sessionsPerWeek) a week; \(Plural.counted(summary.personalBests.count, "personal best")).")
    }

    private func pictures(_ services: ClubServices) -> LogbookPictureService {
        LogbookPictureService(settings: RenderSettings(configuration: services.configuration))
    }

    /// Writes a drawn picture to `file` and says so.
    /// - Throws: `CommandLineError.failure` naming the file when it cannot be written.
    private static func save(_ image: RenderedImage, to file: String, what: String, _ context: CommandContext) throws {
        let path = context.absolutePath(file)
        do {
            try AtomicFile.write(image.bytes, to: path)
        } catch {
            throw CommandLineError.failure("Cannot write \(path): \(error)")
        }
        context.note("Drew \(what) (\(image.width)x\(image.height)) into \(path).")
    }
}
