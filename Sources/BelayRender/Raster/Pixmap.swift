/// An image that owns premultiplied 8-bit RGBA pixels, row after row with no padding.
///
/// Premultiplied alpha makes compositing and resampling correct at transparent edges (no dark
/// fringes); conversion to and from straight alpha happens only in the codecs.
public struct Pixmap: Sendable, Equatable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// Premultiplied RGBA bytes, `width * 4` per row.
    public internal(set) var bytes: [UInt8]

    /// A transparent pixmap. Sizes below 1 are programmer errors.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a pixmap needs at least one pixel, got \(width)x\(height)")
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// A pixmap whose bytes are not set: for callers that overwrite every byte at once
    /// (saves clearing megabytes that are about to be written).
    init(uninitializedWidth width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a pixmap needs at least one pixel, got \(width)x\(height)")
        self.width = width
        self.height = height
        bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { _, count in count = width * height * 4 }
    }

    /// A pixmap filled with one colour.
    public init(width: Int, height: Int, color: Color) {
        self.init(width: width, height: height)
        fill(color)
    }

    /// Wraps premultiplied RGBA bytes; `bytes.count` must be `width * height * 4`.
    init(width: Int, height: Int, premultipliedBytes: [UInt8]) {
        precondition(width > 0 && height > 0 && premultipliedBytes.count == width * height * 4)
        self.width = width
        self.height = height
        bytes = premultipliedBytes
    }

    /// Makes a pixmap from straight-alpha RGBA bytes, premultiplying them.
    init(width: Int, height: Int, straightRGBA: [UInt8]) {
        self.init(width: width, height: height, premultipliedBytes: straightRGBA)
        bytes.withUnsafeMutableBufferPointer { pixels in
            var index = 0
            let end = pixels.count
            while index < end {
                let alpha = pixels[index + 3]
                if alpha != 255 {
                    pixels[index] = Pixmap.multiply(pixels[index], alpha)
                    pixels[index + 1] = Pixmap.multiply(pixels[index + 1], alpha)
                    pixels[index + 2] = Pixmap.multiply(pixels[index + 2], alpha)
                }
                index += 4
            }
        }
    }

    /// The straight-alpha colour at a pixel (for tests and colour sampling).
    public func color(x: Int, y: Int) -> Color {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the pixmap")
        let index = (y * width + x) * 4
        let alpha = bytes[index + 3]
        return Color(
            red: Pixmap.divide(bytes[index], alpha), green: Pixmap.divide(bytes[index + 1], alpha),
            blue: Pixmap.divide(bytes[index + 2], alpha), alpha: alpha)
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        bytes.withUnsafeBufferPointer { pixels in
            var index = 3
            while index < pixels.count {
                if pixels[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }

    /// Fills every pixel with one colour.
    public mutating func fill(_ color: Color) {
        let (r, g, b, a) = color.premultiplied
        let packed = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for index in words.indices { words[index] = packed.littleEndian }
        }
    }

    /// `value * alpha / 255`, rounded.
    @inline(__always)
    static func multiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
        let product = UInt32(value) * UInt32(alpha) + 128
        return UInt8((product + (product >> 8)) >> 8)
    }

    /// `value * 255 / alpha`, rounded and clamped: un-premultiplies one channel.
    @inline(__always)
    static func divide(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
        if alpha == 255 { return value }
        if alpha == 0 { return 0 }
        return UInt8(min(255, (UInt32(value) * 255 + UInt32(alpha) / 2) / UInt32(alpha)))
    }
}
