import Foundation
import BelayArguments
import BelayComposition
import BelayDomain
import BelayPipeline

/// `belay images copy --to s3|directory`: move a club's rendered images between the data
/// directory and the bucket.
struct ImagesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "images", abstract: "Copy rendered images between the data directory and the bucket.", subcommands: [Copy.self])
    }

    /// `belay images copy`.
    struct Copy: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "copy",
                abstract: "Copy reward images into the bucket (--to s3) or back into the data directory (--to directory).",
                discussion: """
                Copies every sticker and story the destination lacks, keeping their content-addressed names; the
                bucket is the one images.s3.* names, whatever images.store says. Resumable and idempotent: run it
                again after an interruption and it copies only what is missing. Safe while the server runs.
                Switch images.store afterwards.
                """
            )
        }

        @Option("to", valueName: "s3|directory", help: "Where the images go.") var destination: String
        @Flag(.json) var json: Bool

        func validate() throws {
            guard ImageCopy.Direction(rawValue: destination) != nil else {
                throw CommandLineError.usage("--to must be s3 (into the bucket) or directory (back into the data directory), not \"\(destination)\"")
            }
        }

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            let direction = ImageCopy.Direction(rawValue: destination) ?? .s3
            let report: ImageCopyReport
            do {
                let copy = try ImageCopy(configuration: configuration, direction: direction, environment: context.environment)
                context.note("Copying images from \(copy.source.location) to \(copy.destination.location)…")
                report = try copy.run { done, total in
                    if done % 100 == 0 || done == total { context.note("[\(done)/\(total)]") }
                }
            } catch let error as ApplicationError {
                throw CommandLineError.failure(error.description)
            } catch let error as ImageStoreError {
                throw CommandLineError.failure("\(error)")
            }
            if json {
                try context.printJSON(report)
            } else {
                context.print("copied \(report.copied), already there \(report.alreadyThere), failed \(report.errors.count)")
            }
            let megabytes = String(format: "%.1f MB", Double(report.copiedBytes) / 1_048_576)
            context.note("Copied \(Plural.counted(report.copied, "image")) (\(megabytes)); \(report.alreadyThere) were already there.")
            if !report.errors.isEmpty {
                throw CommandLineError.failure("Could not copy \(report.errors.count) image(s); run the command again to retry them:\n"
                    + report.errors.joined(separator: "\n"))
            }
        }
    }
}
