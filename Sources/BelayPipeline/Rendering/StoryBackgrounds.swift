import BelayRender
import Foundation

/// The Stories background layers: each background's colour gradient without the sticker, at
/// the size `share.stories_background_*` sets, rendered on first request and kept
/// content-addressed in `<data directory>/story-backgrounds` (apart from reward images, so
/// the image garbage collector leaves them alone; any node renders a missing one again).
///
/// Thread-safe: drawing a gradient needs no fonts, and files are written atomically.
public struct StoryBackgrounds: Sendable {
    public let width: Int
    public let height: Int
    private let store: ImageStore

    public init(dataDirectory: String, width: Int, height: Int) {
        self.width = width
        self.height = height
        store = ImageStore(root: URL(fileURLWithPath: dataDirectory, isDirectory: true).appendingPathComponent("story-backgrounds"))
    }

    /// The digest naming the background of this colour pair, or nil when a colour is not `#RRGGBB`.
    public func digest(topColor: String, bottomColor: String) -> String? {
        colors(topColor, bottomColor).map { Renderer.storyBackgroundKey(colors: $0, width: width, height: height).digest }
    }

    /// The PNG file of the background of this colour pair, rendered now if it is not stored.
    /// - Throws: `PipelineError` for a colour that is not `#RRGGBB`; `RenderError` or
    ///   `ImageStoreError` when it cannot be drawn or stored.
    public func image(topColor: String, bottomColor: String) throws -> (file: URL, digest: String) {
        guard let colors = colors(topColor, bottomColor) else {
            throw PipelineError.invalidSetting(
                "story colours", "'\(topColor)' / '\(bottomColor)' are not #RRGGBB colours; fix the background catalogue")
        }
        let digest = Renderer.storyBackgroundKey(colors: colors, width: width, height: height).digest
        if store.contains(digest: digest, fileExtension: "png") {
            return (store.url(digest: digest, fileExtension: "png"), digest)
        }
        let image = try Renderer.renderStoryBackground(colors: colors, width: width, height: height)
        return (try store.write(image.bytes, digest: digest, fileExtension: "png"), digest)
    }

    private func colors(_ top: String, _ bottom: String) -> StoryColors? {
        guard let top = Color(hex: top), let bottom = Color(hex: bottom) else { return nil }
        return StoryColors(top: top, bottom: bottom)
    }
}
