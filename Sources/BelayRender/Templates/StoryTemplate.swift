/// `story`: a 1080x1920 vertical image for Instagram/Facebook Stories: a vertical gradient of
/// the background's colour pair with the 3x sticker centred on it.
enum StoryTemplate {
    /// Bump on any change to how a story looks (the sticker's own version counts separately).
    static let version = 1

    static let width = 1080
    static let height = 1920
    static let stickerScale = 3
    static let stickerOrigin = (x: 180, y: 480)

    /// Draws the story around an already drawn 3x sticker.
    static func draw(sticker: Pixmap, colors: StoryColors) -> Pixmap {
        var story = Pixmap(width: width, height: height)
        story.fillVerticalGradient(top: colors.top, bottom: colors.bottom)
        story.draw(sticker, x: stickerOrigin.x, y: stickerOrigin.y)
        return story
    }
}
