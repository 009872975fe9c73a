import BelayDomain
import Foundation

/// The image format of the 1080x1920 story background.
public enum StoryImageFormat: Sendable, Hashable {
    case png
    /// Quality 1–100.
    case jpeg(quality: Int)

    /// The file extension of stored stories.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        }
    }
}

/// Everything the render pipeline needs from configuration, as plain values.
/// BelayComposition fills it from `config.json` (`data_directory`,
/// `assets_directory`, `club.locale`, `render.*`).
public struct RenderPipelineSettings: Sendable {
    /// Where rendered images go: `<dataDirectory>/images` (rewards) and
    /// `<dataDirectory>/collections` (collection images, a cache).
    public var dataDirectory: String
    /// Hold and background artwork paths in the catalogue are relative to this.
    public var assetsDirectory: String
    /// Locale of dates drawn on stickers (`ko_KR` gives `2026.11.29 (일)`).
    public var clubLocale: String
    /// The date pattern, in the meetup's time zone and the club's locale.
    public var datePattern: String
    /// The sticker's scale (1, 2 or 3; 3 gives 720x960 px, the one stories embed).
    public var stickerScale: Int
    public var storyFormat: StoryImageFormat
    /// Render worker threads in the server.
    public var workers: Int
    /// The club's name, drawn on the composite story ("" draws none).
    public var clubName: String
    /// A PNG of the club's mark drawn beside its name on stories and share cards ("": a
    /// monogram of the name).
    public var clubLogoPath: String
    /// Whether stories and share cards lead with the day's achievement line.
    public var achievementLine: Bool
    /// The holds' names in the club's language (the catalogue's `names`).
    public var holdNames = LocalizedHoldNames()

    /// The line a reward's story and share card lead with ("" when turned off or unknown).
    func achievementText(checkInNumber: Int?, streakMilestone: Int?, climbing: ClimbingDay? = nil) -> String {
        guard achievementLine else { return "" }
        return AchievementLine(checkInNumber: checkInNumber, streakWeeks: streakMilestone, climbing: climbing).text(locale: clubLocale)
    }
    /// How often an idle worker looks at the queue without being notified (a fallback for
    /// jobs queued by other processes, and for retries coming due).
    public var pollInterval: TimeInterval
    /// How long a job waits after the data directory refused a write (disk full, read-only)
    /// before it is tried again; the attempt is not counted.
    public var storageRetryDelay: TimeInterval

    /// The directories, the club and the story's format and workers come from `config.json`;
    /// the date pattern, sticker scale, poll interval and storage retry are Belay's own.
    public init(dataDirectory: String, assetsDirectory: String, clubLocale: String, clubName: String, clubLogoPath: String,
                achievementLine: Bool, datePattern: String = "yyyy.MM.dd (E)", stickerScale: Int = 3, storyFormat: StoryImageFormat,
                workers: Int, pollInterval: TimeInterval = 2, storageRetryDelay: TimeInterval = 30) {
        self.dataDirectory = dataDirectory
        self.assetsDirectory = assetsDirectory
        self.clubLocale = clubLocale
        self.clubName = clubName
        self.clubLogoPath = clubLogoPath
        self.achievementLine = achievementLine
        self.datePattern = datePattern
        self.stickerScale = stickerScale
        self.storyFormat = storyFormat
        self.workers = workers
        self.pollInterval = pollInterval
        self.storageRetryDelay = storageRetryDelay
    }

    /// The reward image store.
    public var imagesDirectory: URL {
        URL(fileURLWithPath: dataDirectory, isDirectory: true).appendingPathComponent(Self.imagesFolder, isDirectory: true)
    }

    /// The collection image cache.
    public var collectionsDirectory: URL {
        URL(fileURLWithPath: dataDirectory, isDirectory: true).appendingPathComponent(Self.collectionsFolder, isDirectory: true)
    }

    /// The folder of reward images inside the data directory; reward rows store paths
    /// relative to the data directory that start with it.
    public static let imagesFolder = "images"
    static let collectionsFolder = "collections"
    static let cardsFolder = "cards"

    /// The share card cache (`og:image` of share pages).
    public var cardsDirectory: URL {
        URL(fileURLWithPath: dataDirectory, isDirectory: true).appendingPathComponent(Self.cardsFolder, isDirectory: true)
    }

    /// Checks the values.
    /// - Throws: `PipelineError` naming the setting.
    public func validate() throws {
        guard !dataDirectory.isEmpty else { throw PipelineError.invalidSetting("data_directory", "must not be empty") }
        guard (1...3).contains(stickerScale) else {
            throw PipelineError.invalidSetting("sticker_scale", "must be 1, 2 or 3 (got \(stickerScale))")
        }
        guard workers >= 1 else { throw PipelineError.invalidSetting("render.workers", "must be 1 or more (got \(workers))") }
        guard pollInterval > 0 else { throw PipelineError.invalidSetting("poll_interval", "must be above 0") }
        if case let .jpeg(quality) = storyFormat, !(1...100).contains(quality) {
            throw PipelineError.invalidSetting("render.jpeg_quality", "must be 1–100 (got \(quality))")
        }
    }
}
