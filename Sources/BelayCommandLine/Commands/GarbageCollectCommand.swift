import Foundation
import BelayArguments
import BelayDomain
import BelayPipeline

/// `belay gc`: remove image files no reward refers to.
struct GarbageCollectCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "gc",
            abstract: "Remove rendered images no reward refers to, and leftover temporary files.",
            discussion: """
            Looks through <data_directory>/images: removes image files that no reward row refers to (revoked
            rewards keep theirs) and temporary files a crash or a full disk left behind, when they are older
            than --min-age. Cached collection images unused for 7 days go too; they are rendered again on demand.
            Safe while the server and a backfill are running.
            """
        )
    }

    @Flag("dry-run", help: "List what would be removed, and remove nothing.") var dryRun: Bool
    @Option("min-age", valueName: "minutes", default: 10, help: "Keep files younger than this: a render may be about to point a reward at them.") var minimumAge: Int
    @Flag(.json) var json: Bool

    func validate() throws {
        guard minimumAge >= 0 else { throw CommandLineError.usage("--min-age must be 0 or more minutes (got \(minimumAge))") }
    }

    func run(_ context: CommandContext) throws {
        let services = try context.services()
        let pipeline = try context.pipeline(services)
        let report: GarbageCollectionReport
        do {
            report = try pipeline.garbageCollector.collect(dryRun: dryRun, minimumAge: TimeInterval(minimumAge) * 60)
        } catch let error as ImageStoreError {
            throw CommandLineError.failure(error.description)
        }
        if json { return try context.printJSON(report) }
        for path in report.removedFiles + report.removedTemporaryFiles + report.removedCollections { context.print(path) }
        let count = report.removedFiles.count + report.removedTemporaryFiles.count + report.removedCollections.count
        let megabytes = String(format: "%.1f MB", Double(report.removedBytes) / 1_048_576)
        context.note((dryRun ? "Would remove" : "Removed") + " \(Plural.counted(count, "file")) (\(megabytes)): "
            + "\(Plural.counted(report.removedFiles.count, "unreferenced image")), "
            + "\(report.removedTemporaryFiles.count) temporary, \(Plural.counted(report.removedCollections.count, "cached collection")). "
            + "Kept \(report.keptReferenced) in use and \(report.keptRecent) newer than \(minimumAge) min."
            + (dryRun ? " Nothing was removed (dry run)." : ""))
        if !report.errors.isEmpty {
            throw CommandLineError.failure("Could not remove \(report.errors.count) file(s):\n" + report.errors.joined(separator: "\n"))
        }
    }
}
