import BelayCore
import Foundation

/// What the sticker and story of one reward show.
public struct RewardImageRequest: Sendable, Hashable {
    /// Absolute path of the hold artwork PNG.
    public var holdArtworkPath: String
    /// Absolute path of the background artwork.
    public var backgroundPath: String
    /// `#RRGGBB` at the top of the story gradient.
    public var topColor: String
    /// `#RRGGBB` at the bottom of the story gradient.
    public var bottomColor: String
    /// The place name drawn on the sticker.
    public var placeName: String
    /// The date line, already formatted (`2026.11.29 (일)`).
    public var dateText: String
    /// The sticker's scale (1–3). The story always embeds the 3x sticker.
    public var stickerScale: Int
    public var storyFormat: StoryImageFormat
    /// The club's locale (`ko_KR`): picks the regional forms of Han characters.
    public var language: String
    /// The club's and the hold's names, drawn on the composite story around the sticker.
    public var clubName = ""
    public var holdName = ""
    /// The reward's signed Open Badges credential, baked into the sticker PNG; nil for none.
    public var badgeCredential: String?
    /// The line the story and share card lead with ("12th check-in · 5-week streak"; "" for none).
    public var achievementLine = ""
    /// A PNG of the club's mark beside its name on the story and share card ("": a monogram).
    public var clubLogoPath = ""

    public init(holdArtworkPath: String, backgroundPath: String, topColor: String, bottomColor: String, placeName: String,
                dateText: String, stickerScale: Int = 3, storyFormat: StoryImageFormat = .png, language: String = "ko_KR") {
        self.language = language
        self.holdArtworkPath = holdArtworkPath
        self.backgroundPath = backgroundPath
        self.topColor = topColor
        self.bottomColor = bottomColor
        self.placeName = placeName
        self.dateText = dateText
        self.stickerScale = stickerScale
        self.storyFormat = storyFormat
    }
}

/// The content keys of a reward's two images: strings that change exactly when the image
/// would (template version, artwork contents, text, scale, format). Their digests name the
/// stored files, so identical inputs are rendered once.
public struct RewardImageKeys: Sendable, Hashable {
    /// The sticker's key: its digest names the stored file.
    public var sticker: ContentKey
    /// The story's key.
    public var story: ContentKey
    /// Characters of the place name or date that no font of the chain has: the images leave
    /// them out. Known from the layout alone, so also when the images are already stored.
    public var missingCharacters: [Character]

    public init(sticker: ContentKey, story: ContentKey, missingCharacters: [Character] = []) {
        self.sticker = sticker
        self.story = story
        self.missingCharacters = missingCharacters
    }
}

/// Encoded images; nil for one that was not asked for.
public struct RewardImageFiles: Sendable {
    public var sticker: [UInt8]?
    public var story: [UInt8]?

    public init(sticker: [UInt8]?, story: [UInt8]?) {
        self.sticker = sticker
        self.story = story
    }
}

/// Draws a reward's sticker and story. One instance per worker thread: an instance is used
/// by one thread at a time (its text engine and caches are not shared).
public protocol RewardImageRenderer: AnyObject {
    /// The version of the sticker and story templates together; stored on the reward, and
    /// a higher one makes the backfill re-render.
    var templateVersion: Int { get }

    /// The content keys for `request`, without rendering.
    /// - Throws: when an artwork cannot be read (the error names the file).
    func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys

    /// Renders the images asked for.
    /// - Throws: the renderer's error, naming the file or input at fault.
    func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles

    /// `sticker`, rendered from a request without a badge credential, with `credential` baked
    /// in: exactly the bytes `render` gives for the request with it. Stickers of one hold,
    /// background, place and date then render once and differ only in this step.
    /// - Throws: when `sticker` is not an image this renderer made.
    func bakeBadge(_ credential: String, into sticker: [UInt8]) throws -> [UInt8]

    /// Reads and prepares what rendering `request` needs from its artwork files (decoded,
    /// fitted to the sticker), without drawing: a later render of the same artwork is quicker.
    /// - Throws: when an artwork cannot be read (the error names the file).
    func preloadArtwork(for request: RewardImageRequest) throws
}

/// Makes one renderer per worker thread.
/// - Throws: when a renderer cannot be made (a font is missing), naming the file.
public typealias RewardImageRendererFactory = @Sendable () throws -> any RewardImageRenderer
