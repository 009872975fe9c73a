import BelayCore
import Foundation

/// What the share card of a reward shows.
public struct ShareCardRequest: Sendable, Hashable {
    /// The sticker on the card, and the colours of the gradient behind it.
    public var image: RewardImageRequest
    /// The hold's name, the card's headline.
    public var holdName: String
    /// The club's name.
    public var clubName: String

    public init(image: RewardImageRequest, holdName: String, clubName: String) {
        self.image = image
        self.holdName = holdName
        self.clubName = clubName
    }
}

/// Draws share cards (1200x630 PNG). One instance is used by one thread at a time.
public protocol ShareCardRenderer: AnyObject {
    /// A string that changes exactly when the card would (template version, artworks, text).
    /// - Throws: when an artwork cannot be read.
    func contentKey(for request: ShareCardRequest) throws -> ContentKey
    /// The card's PNG bytes.
    /// - Throws: the renderer's error, naming the input at fault.
    func renderCard(_ request: ShareCardRequest) throws -> [UInt8]
}

/// Makes a share-card renderer (with its own text engine).
public typealias ShareCardRendererFactory = @Sendable () throws -> any ShareCardRenderer
