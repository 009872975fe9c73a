import BelayComposition
import Foundation
import BelayArguments
import BelayCore
import BelayConfig
import BelayDomain
import BelayPipeline
import BelayRender

/// `belay render sticker|story|card|collection|pyramid`: draw one image with Belay's templates.
struct RenderCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "render",
            abstract: "Render a sticker, a story, a share card, a member's collection or a grade pyramid to a file.",
            discussion: """
            sticker, story and card take the artwork files and texts directly (no database): use them to try an
            artwork or a place name, and to benchmark (--repeat N --json). collection renders a member's
            whole collection from the database, like GET /v1/me/collection.png. pyramid draws the logbook's
            grade pyramid from bars given on the command line (bench/render compares its CPU with the sticker's).
            """,
            subcommands: [Sticker.self, Story.self, Card.self, Collection.self, Pyramid.self])
    }

    /// - Throws: `CommandLineError.usage` unless `scale` is 1, 2 or 3.
    static func validate(scale: Int) throws {
        guard (1...3).contains(scale) else { throw CommandLineError.usage("--scale must be 1, 2 or 3 (got \(scale))") }
    }

    /// The cores `--threads` gives one render: every core for 0.
    static func cores(_ threads: Int) -> Int {
        threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : threads
    }

    /// - Throws: `CommandLineError.usage` for a negative `--threads`.
    static func validate(threads: Int) throws {
        guard threads >= 0 else { throw CommandLineError.usage("--threads must be 0 (all cores) or more (got \(threads))") }
    }

    /// What sticker and story read from the command line.
    struct Values: ArgumentGroup {
        @Option("background", valueName: "file", help: "Background artwork (PNG or JPEG).") var background: String
        @Option("hold", valueName: "file", help: "Hold artwork (PNG with transparency).") var hold: String
        @Option("place", valueName: "text", help: "The place name (ellipsised when too long).") var place: String
        @Option("date", valueName: "text", help: "The date line, as shown (e.g. \"2026.11.29 (일)\").") var date: String
        @Option("out", valueName: "file", help: "Where to write the image.") var out: String
        @OptionalOption("locale", valueName: "id",
                        help: "Locale of the text, e.g. ja_JP or zh_TW: picks the regional forms of Han characters (default: club.locale).")
        var locale: String?
        @Option("repeat", valueName: "n", default: 1,
                help: "Render n times after a warm-up render and report the timings (the file is written once).")
        var repeatCount: Int
        @Option("threads", valueName: "n", default: 0, help: "Cores one render may use for resampling and PNG compression (0: all).")
        var threads: Int
        @OptionalOption("png-compressor", valueName: "name",
                        help: "PNG compression: zlib (split across --threads cores), libdeflate or libpng (default: zlib level 1, rle strategy).")
        var pngCompressor: PNGCompressorName?
        @OptionalOption("png-level", valueName: "n", help: "Compression level (zlib/libpng 0–9, libdeflate 1–12; default 6).")
        var pngLevel: Int?
        @OptionalOption("png-filter", valueName: "filter", help: "PNG row filter (default: adaptive).") var pngFilter: PNGRowFilter?
        @OptionalOption("png-strategy", valueName: "strategy", help: "zlib strategy for zlib and libpng (default: auto for zlib, default for libpng).")
        var pngStrategy: ZlibStrategy?
        @Flag(.json) var json: Bool

        /// The PNG encoder settings the four `--png-*` options choose.
        var png: PNGSettings {
            let defaults = PNGSettings.default
            let level = pngLevel ?? 6
            let compressor: PNGSettings.Compressor = switch pngCompressor {
            case nil: defaults.compressor
            case .zlib: .zlib(level: level, strategy: pngStrategy ?? .automatic)
            case .libdeflate: .libdeflate(level: level)
            case .libpng: .libpng(level: level, strategy: pngStrategy ?? .default)
            }
            return PNGSettings(filter: pngFilter ?? defaults.filter, compressor: compressor)
        }

        func validate() throws {
            guard repeatCount >= 1 else { throw CommandLineError.usage("--repeat must be 1 or more (got \(repeatCount))") }
            try RenderCommand.validate(threads: threads)
        }

        func content(_ context: CommandContext) throws -> StickerContent {
            StickerContent(
                backgroundPath: context.absolutePath(background), holdPath: context.absolutePath(hold), place: place, date: date,
                language: try locale ?? context.configuration().club.locale)
        }

        /// A renderer with the fonts and limits of config.json, allowed `--threads` cores.
        func renderer(_ context: CommandContext) throws -> Renderer {
            try Renderer(settings: RenderSettings(configuration: try context.configuration(), png: png,
                                                  parallelism: RenderCommand.cores(threads)))
        }

        /// Renders and reports as `RenderBenchmark` does, with this command's `--repeat`,
        /// `--json` and `--out` (see `RenderBenchmark.run`).
        func run(_ context: CommandContext, companion: () -> (image: RenderedImage, path: String)? = { nil },
                 placeLayout: (() throws -> (first: Double, warm: Double))? = nil,
                 render: () throws -> RenderedImage) throws {
            try RenderBenchmark(repeatCount: repeatCount, json: json)
                .run(context, out: out, companion: companion, placeLayout: placeLayout, render: render)
        }
    }

    /// `belay render sticker`.
    struct Sticker: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "sticker", abstract: "Render the hold-sticker template (a transparent PNG).",
                discussion: """
                Example:
                  belay render sticker --background Assets/backgrounds/gym-night.png --hold Assets/holds/jug-gold.png \\
                    --place "더클라임 강남점" --date "2026.11.29 (일)" --out sticker.png
                """
            )
        }

        let values = Values()
        @Option("scale", valueName: "1|2|3", default: 3, help: "240x320 pt at this scale (3: 720x960 px).") var scale: Int

        func validate() throws {
            try values.validate()
            try RenderCommand.validate(scale: scale)
        }

        func run(_ context: CommandContext) throws {
            let renderer = try values.renderer(context)
            let content = try values.content(context)
            try values.run(context, placeLayout: { try values.renderer(context).placeLayoutMicroseconds(content, scale: scale) }) {
                try renderer.renderSticker(content, scale: scale)
            }
        }
    }

    /// `belay render story`.
    struct Story: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "story", abstract: "Render the story template (1080x1920, the 3x sticker on a gradient).",
                discussion: """
                With --sticker-out, one reward's sticker and story are rendered together, exactly as a render job
                of `belay serve` or `belay backfill` does; bench/backfill takes this as its pure render cost.
                """
            )
        }

        let values = Values()
        @Option("scale", valueName: "3", default: 3,
                help: "The sticker's scale inside the story: the story is always 1080x1920 around the 3x sticker.")
        var scale: Int
        @OptionalOption("top-color", valueName: "#RRGGBB",
                        help: "Gradient colour at the top (default: the background's pair from catalog.json beside it, else #1E3C72).")
        var topColor: String?
        @OptionalOption("bottom-color", valueName: "#RRGGBB", help: "Gradient colour at the bottom (default: from catalog.json, else #2A5298).")
        var bottomColor: String?
        @OptionalOption("format", valueName: "format", help: "png or jpeg (default: render.story_format).")
        var format: BelayConfiguration.StoryFormat?
        @OptionalOption("quality", valueName: "1-100", help: "JPEG quality (default: render.jpeg_quality).") var quality: Int?
        @OptionalOption("sticker-out", valueName: "file",
                        help: "Also write the 3x sticker, drawn once for both images as a render job does (timings then cover both).")
        var stickerOut: String?
        @OptionalOption("hold-name", valueName: "text", help: "The hold's name, drawn below the sticker (default: none).")
        var holdNameValue: String?
        @OptionalOption("club-name", valueName: "text", help: "The club's name, drawn above the sticker (default: club.name).")
        var clubNameValue: String?
        @OptionalOption("achievement", valueName: "text",
                        help: "The line the story leads with, e.g. \"12th check-in · 5-week streak\" (default: none).")
        var achievement: String?
        @OptionalOption("club-logo", valueName: "file", help: "A PNG of the club's mark beside its name (default: club.logo, else a monogram).")
        var clubLogo: String?

        func validate() throws {
            try values.validate()
            guard scale == 3 else {
                throw CommandLineError.usage("--scale must be 3 for a story (it is always 1080x1920 around the 3x sticker; got \(scale))")
            }
            for (name, value) in [("--top-color", topColor), ("--bottom-color", bottomColor)] {
                if let value, Color(hex: value) == nil {
                    throw CommandLineError.usage("\(name) must be a colour like #1E3C72 (got '\(value)')")
                }
            }
            if let quality, !(1...100).contains(quality) {
                throw CommandLineError.usage("--quality must be 1–100 (got \(quality))")
            }
        }

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            let renderer = try values.renderer(context)
            var content = try values.content(context)
            content.holdName = holdNameValue ?? ""
            content.clubName = clubNameValue ?? configuration.club.name
            content.achievement = achievement ?? ""
            content.clubLogoPath = clubLogo.map(context.absolutePath) ?? configuration.club.logo
            let catalogued = Self.cataloguedColors(background: content.backgroundPath)
            let colors = StoryColors(
                top: topColor.flatMap { Color(hex: $0) } ?? catalogued?.top ?? Color(red: 0x1E, green: 0x3C, blue: 0x72),
                bottom: bottomColor.flatMap { Color(hex: $0) } ?? catalogued?.bottom ?? Color(red: 0x2A, green: 0x52, blue: 0x98))
            let storyFormat = StoryFormat(configuration: configuration, format: format, quality: quality)
            guard let stickerOut else {
                return try values.run(context, placeLayout: { try values.renderer(context).placeLayoutMicroseconds(content) }) {
                    try renderer.renderStory(content, colors: colors, format: storyFormat)
                }
            }
            var sticker: RenderedImage?
            try values.run(context, companion: { sticker.map { ($0, context.absolutePath(stickerOut)) } }) {
                let pair = try renderer.renderStickerAndStory(content, stickerScale: scale, colors: colors, format: storyFormat)
                sticker = pair.sticker
                return pair.story
            }
        }

        /// The colour pair `catalog.json` beside the background gives it, if any.
        static func cataloguedColors(background: String) -> StoryColors? {
            guard let entry = BackgroundCatalogFile.entry(describing: background),
                  let top = Color(hex: entry.top_color), let bottom = Color(hex: entry.bottom_color) else { return nil }
            return StoryColors(top: top, bottom: bottom)
        }
    }

    /// `belay render card`.
    struct Card: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "card", abstract: "Render the share-card template (1200x630, a shared reward's link preview).",
                discussion: """
                Example:
                  belay render card --background Assets/backgrounds/gym-night.png --hold Assets/holds/jug-gold.png \\
                    --place "더클라임 강남점" --date "2026.11.29 (일)" --hold-name "골드 저그" --achievement "12번째 체크인" --out card.png
                """
            )
        }

        let values = Values()
        @OptionalOption("top-color", valueName: "#RRGGBB",
                        help: "Gradient colour at the top (default: the background's pair from catalog.json beside it, else #1E3C72).")
        var topColor: String?
        @OptionalOption("bottom-color", valueName: "#RRGGBB", help: "Gradient colour at the bottom (default: from catalog.json, else #2A5298).")
        var bottomColor: String?
        @OptionalOption("hold-name", valueName: "text", help: "The hold's name, the card's headline (default: none).")
        var holdNameValue: String?
        @OptionalOption("club-name", valueName: "text", help: "The club's name at the bottom (default: club.name).")
        var clubNameValue: String?
        @OptionalOption("achievement", valueName: "text", help: "The line the card leads with (default: none).")
        var achievement: String?
        @OptionalOption("club-logo", valueName: "file", help: "A PNG of the club's mark beside its name (default: club.logo, else a monogram).")
        var clubLogo: String?

        func validate() throws {
            try values.validate()
            for (name, value) in [("--top-color", topColor), ("--bottom-color", bottomColor)] {
                if let value, Color(hex: value) == nil {
                    throw CommandLineError.usage("\(name) must be a colour like #1E3C72 (got '\(value)')")
                }
            }
        }

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            let renderer = try values.renderer(context)
            var sticker = try values.content(context)
            sticker.achievement = achievement ?? ""
            sticker.clubLogoPath = clubLogo.map(context.absolutePath) ?? configuration.club.logo
            let content = ShareCardContent(sticker: sticker, holdName: holdNameValue ?? "", clubName: clubNameValue ?? configuration.club.name)
            let catalogued = Story.cataloguedColors(background: sticker.backgroundPath)
            let colors = StoryColors(
                top: topColor.flatMap { Color(hex: $0) } ?? catalogued?.top ?? Color(red: 0x1E, green: 0x3C, blue: 0x72),
                bottom: bottomColor.flatMap { Color(hex: $0) } ?? catalogued?.bottom ?? Color(red: 0x2A, green: 0x52, blue: 0x98))
            try values.run(context) { try renderer.renderShareCard(content, colors: colors) }
        }
    }

    /// `belay render collection`.
    struct Collection: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "collection", abstract: "Render a member's whole hold collection as one tall PNG.",
                discussion: """
                With --user, the image is cached by content under <data_directory>/collections (the same collection
                at the same scale renders once) and copied to --out. With --items, the collection comes from a JSON
                file, paths relative to it:
                  {"member_name": "김민지", "first_date": "2026.01.04", "last_date": "2026.11.29",
                   "items": [{"hold": "Assets/holds/jug-gold.png", "place": "더클라임 강남점", "date": "2026.01.04"}]}
                """)
        }

        @OptionalOption("user", valueName: "handle", help: "The member whose collection to render (from the database).") var user: String?
        @OptionalOption("items", valueName: "file", help: "Render the collection described by this JSON file instead (no database; see below).") var items: String?
        @Option("scale", valueName: "1|2|3", default: 2, help: "360 pt wide at this scale.") var scale: Int
        @Option("out", valueName: "file", help: "Where to write the PNG.") var out: String
        @Option("threads", valueName: "n", default: 1, help: "Cores the render may use for --items (0: all); --user renders like the server does.") var threads: Int
        @Flag(.json) var json: Bool

        func validate() throws {
            guard (user == nil) != (items == nil) else { throw CommandLineError.usage("give either --user <handle> or --items <file>") }
            try RenderCommand.validate(scale: scale)
            try RenderCommand.validate(threads: threads)
        }

        func run(_ context: CommandContext) throws {
            if let items { return try renderDescribed(items, context) }
            guard let user else { return }
            let services = try context.services()
            let member = try services.user(user)
            let pipeline = try context.pipeline(services)
            let image = try pipeline.collections.image(memberID: member.id, scale: scale)
            let path = context.absolutePath(out)
            do {
                if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
                try FileManager.default.copyItem(atPath: image.url.path, toPath: path)
            } catch {
                throw CommandLineError.cannotWrite(path, error)
            }
            if json {
                try context.printJSON(Report(out: path, holds: image.holdCount, bytes: Int(image.byteCount), digest: image.digest,
                                             cached: image.wasCached, milliseconds: nil, width: nil, height: nil))
            } else {
                context.note("Wrote \(path): \(Plural.counted(image.holdCount, "hold")), \(image.byteCount) bytes\(image.wasCached ? " (from the cache)" : "").")
            }
        }

        /// The JSON form of `--items`.
        struct Description: Decodable {
            struct Item: Decodable {
                let hold: String, place: String, date: String
            }
            let memberName: String
            let firstDate: String?
            let lastDate: String?
            let items: [Item]
        }

        private func renderDescribed(_ file: String, _ context: CommandContext) throws {
            let path = context.absolutePath(file)
            let description: Description
            do {
                let decoder = JSONDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                description = try decoder.decode(Description.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw CommandLineError.failure("Cannot read the collection in '\(path)': \(error). See `belay render collection --help` for its form.")
            }
            let base = (path as NSString).deletingLastPathComponent
            func resolve(_ hold: String) -> String {
                hold.hasPrefix("/") ? hold : URL(fileURLWithPath: (base as NSString).appendingPathComponent(hold)).standardizedFileURL.path
            }
            let content = CollectionContent(
                memberName: description.memberName,
                items: description.items.map { CollectionItem(holdPath: resolve($0.hold), place: $0.place, date: $0.date) },
                firstDate: description.firstDate, lastDate: description.lastDate)
            let renderer = try Renderer(settings: RenderSettings(configuration: try context.configuration(),
                                                                 parallelism: RenderCommand.cores(threads)))
            let start = DispatchTime.now()
            let image = try renderer.renderCollection(content, scale: scale, to: context.absolutePath(out))
            let elapsed = RenderBenchmark.milliseconds(since: start)
            for warning in image.warnings { context.note("Warning: \(warning)") }
            if json {
                try context.printJSON(Report(out: image.path, holds: content.items.count, bytes: image.bytes, digest: nil, cached: false,
                                             milliseconds: RenderBenchmark.rounded(elapsed), width: image.width, height: image.height))
            } else {
                context.note(String(format: "Wrote %@: %dx%d, %d holds, %d bytes in %.0f ms.", image.path, image.width, image.height,
                                    content.items.count, image.bytes, elapsed))
            }
        }

        struct Report: Encodable {
            let out: String, holds: Int, bytes: Int, digest: String?, cached: Bool
            let milliseconds: Double?, width: Int?, height: Int?
        }
    }
}

extension BelayConfiguration.StoryFormat: ExpressibleByArgument {}
extension PNGRowFilter: ExpressibleByArgument {}
extension ZlibStrategy: ExpressibleByArgument {}

/// The PNG compressors `--png-compressor` names.
enum PNGCompressorName: String, CaseIterable, ExpressibleByArgument {
    case zlib, libdeflate, libpng
}

extension RenderCommand {
    /// `belay render pyramid`: the logbook's grade pyramid from bars given on the command line.
    struct Pyramid: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "pyramid", abstract: "Render a grade pyramid (1080x1350), as GET /v1/me/logbook/pyramid.png draws it.",
                discussion: """
                Each bar is GRADE:SENDS:FLASHES, with :#RRGGBB for a gym's colour level, hardest first.
                Example:
                  belay render pyramid --bars "V5:2:1:#E53935,V4:6:2,V3:11:4,V2:15:9" --name "김민지" --out pyramid.png
                """
            )
        }

        @Option("bars", valueName: "list", help: "GRADE:SENDS:FLASHES[:#RRGGBB], comma-separated, hardest first.") var bars: String
        @Option("name", valueName: "text", default: "Belay", help: "The member's name in the title.") var name: String
        @OptionalOption("period", valueName: "text", help: "The period in the subtitle (default: all time).") var period: String?
        @Option("out", valueName: "file", help: "Where to write the image.") var out: String
        @OptionalOption("locale", valueName: "id", help: "Language of the words (default: club.locale).") var locale: String?
        @Option("repeat", valueName: "n", default: 1,
                help: "Render n times after a warm-up render and report the timings (the file is written once).")
        var repeatCount: Int
        @Option("threads", valueName: "n", default: 0, help: "Cores one render may use for PNG compression (0: all).") var threads: Int
        @Flag(.json) var json: Bool

        func validate() throws {
            guard repeatCount >= 1 else { throw CommandLineError.usage("--repeat must be 1 or more (got \(repeatCount))") }
            try RenderCommand.validate(threads: threads)
            _ = try steps()
        }

        /// The bars of `--bars`.
        /// - Throws: `CommandLineError.usage` naming the bar that is not GRADE:SENDS:FLASHES[:#RRGGBB].
        func steps() throws -> [PyramidContent.Step] {
            let steps = try bars.split(separator: ",").map { bar -> PyramidContent.Step in
                let parts = bar.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard (3...4).contains(parts.count), !parts[0].isEmpty, let sends = Int(parts[1]), let flashes = Int(parts[2]),
                      sends >= 0, flashes >= 0, parts.count == 3 || Color(hex: parts[3]) != nil else {
                    throw CommandLineError.usage("--bars: '\(bar)' is not GRADE:SENDS:FLASHES or GRADE:SENDS:FLASHES:#RRGGBB (e.g. V4:6:2:#E53935)")
                }
                return PyramidContent.Step(label: parts[0], sends: sends, flashes: flashes, colour: parts.count == 4 ? parts[3] : nil)
            }
            guard !steps.isEmpty else { throw CommandLineError.usage("--bars needs at least one bar, e.g. V4:6:2") }
            return steps
        }

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            let renderer = try Renderer(settings: RenderSettings(configuration: configuration, png: .default,
                                                                 parallelism: RenderCommand.cores(threads)))
            let content = LogbookPictureService.pyramidContent(steps: try steps(), name: name, period: period,
                                                               locale: locale ?? configuration.club.locale, axisName: .boulder)
            try RenderBenchmark(repeatCount: repeatCount, json: json).run(context, out: out, companion: { nil }, placeLayout: nil) {
                try renderer.renderPyramid(content)
            }
        }
    }
}
