import CImageShim

/// Encodes opaque images (the story) as baseline JPEG through libjpeg-turbo.
public struct JPEGEncoder: Sendable {
    /// 1 (smallest) to 100 (best).
    public var quality: Int

    public init(quality: Int) {
        self.quality = quality
    }

    /// The JPEG bytes of `pixmap`; transparent pixels are flattened onto black.
    /// - Throws: `RenderError` when the quality is out of range or libjpeg fails.
    public func encode(_ pixmap: Pixmap) throws -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw RenderError(.encodingFailed(format: "JPEG", detail: "quality \(quality) is outside 1–100"))
        }
        let rgb = PNGRows.straight(pixmap, rows: 0..<pixmap.height, colorType: .rgb)
        var status = belay_image_status()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let result = rgb.withUnsafeBufferPointer { pixels in
            belay_jpeg_encode_rgb(
                pixels.baseAddress, UInt32(pixmap.width), UInt32(pixmap.height), Int32(quality), &output, &size, &status)
        }
        guard result == 0, let output else {
            throw RenderError(.encodingFailed(format: "JPEG", detail: "libjpeg: \(status.text)"))
        }
        defer { belay_image_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
