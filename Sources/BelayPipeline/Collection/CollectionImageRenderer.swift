import BelayCore
import BelayRender
import Foundation

/// One hold in a collection image.
public struct CollectionEntry: Sendable, Hashable {
    /// Absolute path of the hold artwork PNG.
    public var holdArtworkPath: String
    public var holdName: String
    /// The meetup's place.
    public var placeName: String
    /// The meetup's date, formatted in its zone and the club's locale.
    public var dateText: String

    public init(holdArtworkPath: String, holdName: String, placeName: String, dateText: String) {
        self.holdArtworkPath = holdArtworkPath
        self.holdName = holdName
        self.placeName = placeName
        self.dateText = dateText
    }
}

/// A member's whole collection, oldest hold first.
public struct CollectionRequest: Sendable, Hashable {
    public var memberName: String
    public var entries: [CollectionEntry]
    /// The first and last dates, as shown in the header (nil for an empty collection).
    public var firstDateText: String?
    public var lastDateText: String?
    /// 1, 2 or 3.
    public var scale: Int
    /// The member's progress through the catalogue and weekly streak, shown in the header;
    /// nil in a host's view, which shows only the holds from their meetups.
    public var progress: CollectionProgress?

    public init(memberName: String, entries: [CollectionEntry], firstDateText: String?, lastDateText: String?, scale: Int,
                progress: CollectionProgress? = nil) {
        self.memberName = memberName
        self.entries = entries
        self.firstDateText = firstDateText
        self.lastDateText = lastDateText
        self.scale = scale
        self.progress = progress
    }
}

/// Draws a collection as one tall PNG, in bands, straight into a file (so memory stays flat
/// however long the collection is). One instance is used by one thread at a time.
public protocol CollectionImageRenderer: AnyObject {
    /// A string that changes exactly when the image would (template version, artworks, text, scale).
    /// - Throws: when an artwork cannot be read.
    func contentKey(for request: CollectionRequest) throws -> ContentKey
    /// Renders and encodes the image into the file at `path` (which does not exist yet).
    /// - Throws: the renderer's error, naming the input at fault.
    func renderPNG(_ request: CollectionRequest, toFile path: String) throws
}

/// Makes a collection renderer (with its own text engine).
public typealias CollectionImageRendererFactory = @Sendable () throws -> any CollectionImageRenderer
