/// The templates Belay renders, each with a version. Bumping a version (any change to a
/// template's look: layout, colours, fonts, filters) changes the content key of everything
/// drawn with it, and the backfill re-renders what was drawn with an older version.
public enum Template: String, Sendable, CaseIterable {
    case holdSticker = "hold-sticker"
    case story
    case storyBackground = "story-background"
    case collection
    case shareCard = "share-card"

    /// The template's current version.
    public var version: Int {
        switch self {
        case .holdSticker: StickerTemplate.version
        case .story: StoryTemplate.version
        case .storyBackground: StoryBackgroundTemplate.version
        case .collection: CollectionTemplate.version
        case .shareCard: ShareCardTemplate.version
        }
    }

    /// One number for the sticker and story together (the story embeds the sticker): the sum
    /// of their versions, so it grows whenever either is bumped. Stored on a reward; a reward
    /// with a smaller number is re-rendered.
    public static var rewardImagesVersion: Int {
        Template.holdSticker.version + Template.story.version
    }
}
