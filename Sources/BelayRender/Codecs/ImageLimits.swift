/// The largest images Belay agrees to decode; anything bigger is refused before decoding.
/// From config.json's `render.max_image_side` and `render.max_decoded_bytes`.
public struct ImageLimits: Hashable, Sendable {
    /// The longest accepted side, in pixels.
    public var maxSide: Int
    /// The most bytes an image may take once decoded to RGBA (width * height * 4).
    public var maxDecodedBytes: Int

    public init(maxSide: Int, maxDecodedBytes: Int) {
        self.maxSide = maxSide
        self.maxDecodedBytes = maxDecodedBytes
    }

    /// Compressed files larger than the decoded limit (plus room for metadata) are refused
    /// unread: no valid image within the limits needs more.
    var maxFileBytes: Int { maxDecodedBytes + (1 << 20) }

    func check(width: Int, height: Int, path: String) throws {
        guard width > 0, height > 0 else {
            throw RenderError(.emptyImage(path: path, width: width, height: height))
        }
        guard width <= maxSide, height <= maxSide else {
            throw RenderError(.imageTooWide(path: path, width: width, height: height, limit: maxSide))
        }
        let bytes = width * height * 4
        guard bytes <= maxDecodedBytes else {
            throw RenderError(
                .imageTooManyBytes(path: path, width: width, height: height, bytes: bytes, limit: maxDecodedBytes))
        }
    }
}
