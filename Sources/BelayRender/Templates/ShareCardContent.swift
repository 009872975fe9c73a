/// What a share card shows: the sticker's content, and the names around it.
public struct ShareCardContent: Sendable, Hashable {
    /// The sticker drawn on the card (its artworks, place and date).
    public var sticker: StickerContent
    /// The hold's name, the card's headline.
    public var holdName: String
    /// The club that issued the reward.
    public var clubName: String

    public init(sticker: StickerContent, holdName: String, clubName: String) {
        self.sticker = sticker
        self.holdName = holdName
        self.clubName = clubName
    }
}
