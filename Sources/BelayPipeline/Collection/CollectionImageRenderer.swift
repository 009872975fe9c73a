import BelayCore
import BelayRender
import Foundation

/// A member's whole collection at a scale: what the `collection` template draws
/// (`CollectionContent`, declared once in BelayRender, holds oldest first) and how large.
public struct CollectionRequest: Sendable, Hashable {
    /// The header and the holds, as the template takes them.
    public var content: CollectionContent
    /// 1, 2 or 3.
    public var scale: Int

    public init(content: CollectionContent, scale: Int) {
        self.content = content
        self.scale = scale
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
