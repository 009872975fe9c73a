import CImageShim

/// Decodes PNG and JPEG files into premultiplied pixmaps, refusing anything truncated, corrupt,
/// empty or larger than the limits before it is drawn.
public enum ImageDecoder {
    enum Format: String {
        case png = "PNG"
        case jpeg = "JPEG"
    }

    /// Reads and decodes the image at `path`.
    /// - Throws: `RenderError` naming the file: unreadable, empty, not an image, truncated,
    ///   corrupt, zero-sized, or over `limits`.
    public static func decode(contentsOf path: String, limits: ImageLimits) throws -> Pixmap {
        let data = try FileIO.read(path, limit: limits.maxFileBytes)
        return try decode(data, name: path, limits: limits)
    }

    /// Decodes an image held in memory; `name` is used in error messages.
    public static func decode(_ data: [UInt8], name: String, limits: ImageLimits) throws -> Pixmap {
        guard !data.isEmpty else { throw RenderError(.emptyFile(path: name)) }
        guard let format = format(of: data) else { throw RenderError(.notAnImage(path: name)) }
        if format == .png, let (width, height) = pngHeaderSize(data) {
            // Check the declared size before libpng sees it, so a zero or huge size is named as such.
            try limits.check(width: width, height: height, path: name)
        }
        var status = belay_image_status()
        var width: UInt32 = 0
        var height: UInt32 = 0
        let sized = data.withUnsafeBufferPointer { bytes in
            switch format {
            case .png: belay_png_read_size(bytes.baseAddress, bytes.count, &width, &height, &status)
            case .jpeg: belay_jpeg_read_size(bytes.baseAddress, bytes.count, &width, &height, &status)
            }
        }
        guard sized == 0 else { throw failure(status, format: format, name: name) }
        try limits.check(width: Int(width), height: Int(height), path: name)
        var rgba = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let decoded = data.withUnsafeBufferPointer { bytes in
            rgba.withUnsafeMutableBufferPointer { pixels in
                switch format {
                case .png: belay_png_decode_rgba(bytes.baseAddress, bytes.count, pixels.baseAddress, pixels.count, &status)
                case .jpeg: belay_jpeg_decode_rgba(bytes.baseAddress, bytes.count, pixels.baseAddress, pixels.count, &status)
                }
            }
        }
        guard decoded == 0 else { throw failure(status, format: format, name: name) }
        return Pixmap(width: Int(width), height: Int(height), straightRGBA: rgba)
    }

    static func format(of data: [UInt8]) -> Format? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// The width and height an IHDR chunk declares, when the file is long enough to have one.
    private static func pngHeaderSize(_ data: [UInt8]) -> (Int, Int)? {
        guard data.count >= 24, data[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func bigEndian(_ offset: Int) -> Int {
            data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return (bigEndian(16), bigEndian(20))
    }

    private static func failure(_ status: belay_image_status, format: Format, name: String) -> RenderError {
        let message = status.text
        switch Int(status.failure) {
        case Int(BELAY_IMAGE_FAILURE_TRUNCATED):
            return RenderError(.truncatedImage(path: name, format: format.rawValue, detail: message))
        case Int(BELAY_IMAGE_FAILURE_EMPTY):
            return RenderError(.emptyImage(path: name, width: 0, height: 0))
        default:
            return RenderError(.corruptImage(path: name, format: format.rawValue, detail: message))
        }
    }
}

extension belay_image_status {
    var text: String {
        withUnsafeBytes(of: message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
