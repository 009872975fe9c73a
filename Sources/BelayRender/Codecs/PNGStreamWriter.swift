import CDeflate
import CImageShim

/// Writes a PNG whose rows arrive in bands, so an image taller than memory allows can be
/// rendered and encoded a band at a time.
///
/// Each band is filtered and cut into segments compressed with zlib on up to `threads` cores;
/// every segment ends with a sync flush, so the segments join into one zlib stream, closed by
/// an empty final block and the Adler-32 of all filtered bytes.
final class PNGStreamWriter {
    let width: Int
    let height: Int
    let colorType: PNGColorType
    private let filter: PNGRowFilter
    private let compressor: SegmentCompressor
    private let threads: Int
    private let container: PNGContainer
    private var rowsWritten = 0
    private var previousRow: [UInt8]?
    private var adler: UInt32 = 1
    private var wroteStreamHeader = false

    /// Starts the PNG: writes its signature and header to `sink`.
    init(width: Int, height: Int, colorType: PNGColorType, settings: PNGSettings, sink: PNGByteSink) throws {
        self.width = width
        self.height = height
        self.colorType = colorType
        filter = settings.filter
        threads = settings.threads
        // Streams need segments that join: libdeflate and libpng cannot make them, so their
        // settings map to zlib's nearest.
        switch settings.compressor {
        case let .zlib(level, strategy), let .libpng(level, strategy):
            compressor = .zlib(level: level, strategy: strategy)
        case let .libdeflate(level):
            compressor = .zlib(level: min(9, level), strategy: .default)
        }
        if case let .zlib(level, _) = compressor, !(0...9).contains(level) {
            throw RenderError(.encodingFailed(format: "PNG", detail: "zlib cannot use level \(level) (0–9)"))
        }
        container = PNGContainer(sink: sink)
        try container.writeHeader(width: width, height: height, colorType: colorType)
    }

    enum SegmentCompressor {
        case zlib(level: Int, strategy: ZlibStrategy)
    }

    private struct Segment {
        var compressed: [UInt8] = []
        var adler: UInt32 = 1
        var length = 0
        var failure: String?
    }

    /// Appends the next `band.height` rows of the image.
    /// - Throws: `RenderError` when compression or the sink fails.
    func append(_ band: Pixmap) throws {
        try append(band, rows: 0..<band.height)
    }

    /// Appends rows `rows` of `pixmap` as the next rows of the image.
    /// - Throws: `RenderError` when compression or the sink fails.
    func append(_ pixmap: Pixmap, rows: Range<Int>) throws {
        precondition(pixmap.width == width, "band is \(pixmap.width) px wide, the PNG \(width) px")
        precondition(rowsWritten + rows.count <= height, "more rows than the PNG's \(height)")
        guard !rows.isEmpty else { return }
        let pieceCount = max(1, min(threads, rows.count / 32))
        var segments = [Segment](repeating: Segment(), count: pieceCount)
        // The row above the first one: the pixmap's own, or the last row of the previous band.
        let previousRow = rows.lowerBound == 0 ? self.previousRow : nil
        let (filter, compressor, colorType) = (filter, compressor, colorType)
        segments.withUnsafeMutableBufferPointer { results in
            let output = UncheckedSendable(results.baseAddress!)
            Parallel.forEachPiece(of: rows.count, parallelism: pieceCount) { piece, range in
                let pieceRows = (rows.lowerBound + range.lowerBound)..<(rows.lowerBound + range.upperBound)
                let filtered = PNGRows.filtered(
                    pixmap, rows: pieceRows, colorType: colorType, filter: filter,
                    previousRow: pieceRows.lowerBound == 0 ? previousRow : nil)
                output.value[piece] = PNGStreamWriter.compress(filtered, with: compressor)
            }
        }
        for segment in segments {
            if let failure = segment.failure {
                throw RenderError(.encodingFailed(format: "PNG", detail: failure))
            }
            try segment.compressed.withUnsafeBytes { bytes in
                if wroteStreamHeader {
                    try container.writeChunk("IDAT", bytes)
                } else {
                    // zlib header: deflate with a 32 KiB window, no dictionary (0x78 0x01).
                    try container.writeChunk("IDAT", prefix: [0x78, 0x01], bytes)
                    wroteStreamHeader = true
                }
            }
            adler = belay_adler32_combine(adler, segment.adler, segment.length)
        }
        self.previousRow = PNGRows.straight(pixmap, rows: (rows.upperBound - 1)..<rows.upperBound, colorType: colorType)
        rowsWritten += rows.count
    }

    /// Ends the stream and the PNG. Every row must have been appended.
    func finish() throws {
        precondition(rowsWritten == height, "only \(rowsWritten) of \(height) rows were appended")
        // An empty final block with fixed codes (BFINAL=1, BTYPE=01, end-of-block), then Adler-32.
        var trailer: [UInt8] = [0x03, 0x00]
        trailer.appendBigEndian(adler)
        try trailer.withUnsafeBytes { try container.writeChunk("IDAT", $0) }
        try container.writeEnd()
    }

    private static func compress(_ filtered: [UInt8], with compressor: SegmentCompressor) -> Segment {
        var segment = Segment()
        segment.length = filtered.count
        var status = belay_image_status()
        var size = 0
        let bound = belay_deflate_segment_bound(filtered.count)
        var output = [UInt8](unsafeUninitializedCapacity: bound) { _, count in count = bound }
        let result = filtered.withUnsafeBufferPointer { input in
            segment.adler = UInt32(truncatingIfNeeded: libdeflate_adler32(1, input.baseAddress, input.count))
            return output.withUnsafeMutableBufferPointer { buffer in
                switch compressor {
                case let .zlib(level, strategy):
                    belay_deflate_segment(
                        input.baseAddress, input.count, Int32(level), strategy.zlibValue,
                        buffer.baseAddress, buffer.count, &size, &status)
                }
            }
        }
        if result != 0 {
            segment.failure = "zlib: \(status.text)"
            return segment
        }
        output.removeLast(output.count - size)
        segment.compressed = output
        return segment
    }
}
