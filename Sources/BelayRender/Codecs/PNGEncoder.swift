import CDeflate
import CImageShim

/// Where encoded bytes go: memory or a file.
protocol PNGByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// Collects encoded bytes in memory.
final class MemorySink: PNGByteSink {
    var bytes: [UInt8] = []

    init(reserving capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}

/// The pixel layout of an encoded PNG.
public enum PNGColorType: Sendable, Hashable {
    /// 8-bit RGBA with straight alpha.
    case rgba
    /// 8-bit RGB; transparent pixels are flattened onto black (use it for opaque images).
    case rgb

    var channels: Int { self == .rgba ? 4 : 3 }
}

/// Encodes pixmaps as PNG.
///
/// With the zlib and libdeflate compressors Belay writes the PNG container itself (signature,
/// IHDR, IDAT, IEND with their CRCs), because libpng can neither use libdeflate nor compress on
/// several cores; the libpng compressor goes through libpng's writer. Every path is checked
/// by decoding its output with libpng in the tests.
public struct PNGEncoder: Sendable {
    public var settings: PNGSettings
    static let bandHeight = 128

    public init(settings: PNGSettings = .default) {
        self.settings = settings
    }

    /// The PNG bytes of `pixmap`.
    /// - Throws: `RenderError` when the compressor fails (invalid level, out of memory).
    public func encode(_ pixmap: Pixmap, as colorType: PNGColorType = .rgba) throws -> [UInt8] {
        switch settings.compressor {
        case let .libpng(level, strategy):
            return try encodeWithLibpng(pixmap, colorType: colorType, level: level, strategy: strategy)
        case let .libdeflate(level):
            return try encodeWithLibdeflate(pixmap, colorType: colorType, level: level)
        case .zlib:
            let sink = MemorySink(reserving: pixmap.width * pixmap.height * colorType.channels / 3)
            let writer = try PNGStreamWriter(
                width: pixmap.width, height: pixmap.height, colorType: colorType, settings: settings, sink: sink)
            // Bands keep the working buffers small (in cache, no fresh pages per encode).
            for start in stride(from: 0, to: pixmap.height, by: Self.bandHeight) {
                try writer.append(pixmap, rows: start..<min(pixmap.height, start + Self.bandHeight))
            }
            try writer.finish()
            return sink.bytes
        }
    }

    private func encodeWithLibpng(_ pixmap: Pixmap, colorType: PNGColorType, level: Int, strategy: ZlibStrategy) throws -> [UInt8] {
        let rows = PNGRows.straight(pixmap, rows: 0..<pixmap.height, colorType: colorType)
        let filters: Int32 = switch settings.filter {
        case .none: 0x08
        case .sub: 0x10
        case .up: 0x20
        case .average: 0x40
        case .paeth: 0x80
        case .adaptive: 0xF8
        }
        var status = belay_image_status()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let result = rows.withUnsafeBufferPointer { pixels in
            belay_png_encode_libpng(
                pixels.baseAddress, UInt32(pixmap.width), UInt32(pixmap.height), Int32(colorType.channels),
                Int32(level), filters, strategy.zlibValue, &output, &size, &status)
        }
        guard result == 0, let output else {
            throw RenderError(.encodingFailed(format: "PNG", detail: "libpng: \(status.text)"))
        }
        defer { belay_image_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private func encodeWithLibdeflate(_ pixmap: Pixmap, colorType: PNGColorType, level: Int) throws -> [UInt8] {
        guard (1...12).contains(level), let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            throw RenderError(.encodingFailed(format: "PNG", detail: "libdeflate cannot use level \(level) (1–12)"))
        }
        defer { libdeflate_free_compressor(compressor) }
        let filtered = PNGRows.filtered(
            pixmap, rows: 0..<pixmap.height, colorType: colorType, filter: settings.filter)
        let bound = libdeflate_zlib_compress_bound(compressor, filtered.count)
        var compressed = [UInt8](repeating: 0, count: bound)
        let size = filtered.withUnsafeBytes { input in
            compressed.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard size > 0 else { throw RenderError(.encodingFailed(format: "PNG", detail: "libdeflate produced no output")) }
        let sink = MemorySink(reserving: size + 64)
        let container = PNGContainer(sink: sink)
        try container.writeHeader(width: pixmap.width, height: pixmap.height, colorType: colorType)
        try compressed.withUnsafeBytes { try container.writeChunk("IDAT", UnsafeRawBufferPointer(rebasing: $0[..<size])) }
        try container.writeEnd()
        return sink.bytes
    }
}

/// PNG's chunk layer: signature, IHDR, IDAT and IEND, each with its CRC-32.
struct PNGContainer {
    let sink: PNGByteSink

    func writeHeader(width: Int, height: Int, colorType: PNGColorType) throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try signature.withUnsafeBytes { try sink.write($0) }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Bit depth 8; colour type 6 (RGBA) or 2 (RGB); deflate; adaptive filtering; no interlace.
        header += [8, colorType == .rgba ? 6 : 2, 0, 0, 0]
        try header.withUnsafeBytes { try writeChunk("IHDR", $0) }
    }

    /// Writes one chunk whose data is `prefix` followed by `data` (so a few header bytes can go
    /// in front of a large buffer without copying it).
    func writeChunk(_ type: StaticString, prefix: [UInt8] = [], _ data: UnsafeRawBufferPointer) throws {
        let length = prefix.count + data.count
        precondition(length <= Int(Int32.max), "PNG chunks hold at most 2^31-1 bytes")
        var head: [UInt8] = []
        head.appendBigEndian(UInt32(length))
        head.append(contentsOf: UnsafeRawBufferPointer(start: type.utf8Start, count: 4))
        var crc = libdeflate_crc32(0, type.utf8Start, 4)
        if !prefix.isEmpty {
            crc = prefix.withUnsafeBytes { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
            head += prefix
        }
        if data.count > 0 { crc = libdeflate_crc32(crc, data.baseAddress, data.count) }
        var tail: [UInt8] = []
        tail.appendBigEndian(crc)
        try head.withUnsafeBytes { try sink.write($0) }
        if data.count > 0 { try sink.write(data) }
        try tail.withUnsafeBytes { try sink.write($0) }
    }

    func writeEnd() throws {
        try writeChunk("IEND", UnsafeRawBufferPointer(start: nil, count: 0))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
