import BelayCore
import BelayRender
import Foundation

/// The real renderer: BelayRender's templates behind the pipeline's renderer protocols.
///
/// One instance per worker thread (it owns a `Renderer`: a text engine and artwork caches).
/// Renders run single-threaded inside: the worker pool already fills the cores.
public final class BelayRewardRenderer: RewardImageRenderer, CollectionImageRenderer, ShareCardRenderer {
    private let renderer: Renderer

    /// - Parameter settings: the fonts and limits (the composition root fills them from
    ///   `config.json`); keep `parallelism` at 1 where several renders run at once.
    /// - Throws: `RenderError` naming a font file of the chain that cannot be opened.
    public init(settings: RenderSettings) throws {
        renderer = try Renderer(settings: settings)
    }

    public var templateVersion: Int { Template.rewardImagesVersion }

    public func bakeBadge(_ credential: String, into sticker: [UInt8]) throws -> [UInt8] {
        try Renderer.bakingBadge(credential, into: sticker)
    }

    public func preloadArtwork(for request: RewardImageRequest) throws {
        try renderer.preloadArtwork(try Self.translate(request).0, scale: request.stickerScale)
    }

    public func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys {
        let (content, colors, format) = try Self.translate(request)
        return RewardImageKeys(
            sticker: try renderer.stickerKey(content, scale: request.stickerScale),
            story: try renderer.storyKey(content, colors: colors, format: format),
            missingCharacters: try renderer.missingCharacters(content))
    }

    public func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles {
        let (content, colors, format) = try Self.translate(request)
        switch (sticker, story) {
        case (true, true):
            let both = try renderer.renderStickerAndStory(content, stickerScale: request.stickerScale, colors: colors, format: format)
            return RewardImageFiles(sticker: both.sticker.bytes, story: both.story.bytes)
        case (true, false):
            return RewardImageFiles(sticker: try renderer.renderSticker(content, scale: request.stickerScale).bytes, story: nil)
        case (false, true):
            return RewardImageFiles(sticker: nil, story: try renderer.renderStory(content, colors: colors, format: format).bytes)
        case (false, false):
            return RewardImageFiles(sticker: nil, story: nil)
        }
    }

    public func contentKey(for request: CollectionRequest) throws -> ContentKey {
        try renderer.collectionKey(request.content, scale: request.scale)
    }

    public func renderPNG(_ request: CollectionRequest, toFile path: String) throws {
        try renderer.renderCollection(request.content, scale: request.scale, to: path)
    }

    public func contentKey(for request: ShareCardRequest) throws -> ContentKey {
        let (content, colors, _) = try Self.translate(request.image)
        return try renderer.shareCardKey(ShareCardContent(sticker: content, holdName: request.holdName, clubName: request.clubName),
                                         colors: colors)
    }

    public func renderCard(_ request: ShareCardRequest) throws -> [UInt8] {
        let (content, colors, _) = try Self.translate(request.image)
        return try renderer.renderShareCard(ShareCardContent(sticker: content, holdName: request.holdName, clubName: request.clubName),
                                            colors: colors).bytes
    }

    private static func translate(_ request: RewardImageRequest) throws -> (StickerContent, StoryColors, StoryFormat) {
        guard let top = Color(hex: request.topColor), let bottom = Color(hex: request.bottomColor) else {
            throw PipelineError.invalidSetting(
                "story colours", "'\(request.topColor)' / '\(request.bottomColor)' are not #RRGGBB colours; fix the background catalogue")
        }
        var content = StickerContent(
            backgroundPath: request.backgroundPath, holdPath: request.holdArtworkPath, place: request.placeName, date: request.dateText,
            language: request.language, clubName: request.clubName, holdName: request.holdName)
        content.badgeCredential = request.badgeCredential
        content.achievement = request.achievementLine
        content.clubLogoPath = request.clubLogoPath
        let format: StoryFormat = switch request.storyFormat {
        case .png: .png
        case let .jpeg(quality): .jpeg(quality: quality)
        }
        return (content, StoryColors(top: top, bottom: bottom), format)
    }
}
