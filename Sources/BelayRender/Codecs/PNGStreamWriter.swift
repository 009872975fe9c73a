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

    /// One segment's working memory, kept across bands so an encode allocates it once (the
    /// buffers are megabytes; fresh ones every band would cost page faults every band).
    private final class Segment: @unchecked Sendable {
        let straight = ScratchBuffer()
        let filtered = ScratchBuffer()
        let trials = ScratchBuffer()
        let compressed = ScratchBuffer()
        var compressedCount = 0
        var adler: UInt32 = 1
        var length = 0
        var failure: String?
    }

    private var segments: [Segment] = []

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
        while segments.count < pieceCount { segments.append(Segment()) }
        // The row above the first one: the pixmap's own, or the last row of the previous band.
        let previousRow = rows.lowerBound == 0 ? self.previousRow : nil
        let (filter, compressor, colorType, segments) = (filter, compressor, colorType, segments)
        Parallel.forEachPiece(of: rows.count, parallelism: pieceCount) { piece, range in
            let pieceRows = (rows.lowerBound + range.lowerBound)..<(rows.lowerBound + range.upperBound)
            PNGStreamWriter.encode(
                pixmap, rows: pieceRows, colorType: colorType, filter: filter, compressor: compressor,
                previousRow: pieceRows.lowerBound == 0 ? previousRow : nil, into: segments[piece])
        }
        for index in 0..<pieceCount {
            try write(segments[index])
        }
        self.previousRow = PNGRows.straight(pixmap, rows: (rows.upperBound - 1)..<rows.upperBound, colorType: colorType)
        rowsWritten += rows.count
    }

    /// Writes a compressed segment as an IDAT chunk.
    private func write(_ segment: Segment) throws {
        if let failure = segment.failure {
            throw RenderError(.encodingFailed(format: "PNG", detail: failure))
        }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(segment.compressed.pointer), count: segment.compressedCount)
        if wroteStreamHeader {
            try container.writeChunk("IDAT", bytes)
        } else {
            // zlib header: deflate with a 32 KiB window, no dictionary (0x78 0x01).
            try container.writeChunk("IDAT", prefix: [0x78, 0x01], bytes)
            wroteStreamHeader = true
        }
        adler = belay_adler32_combine(adler, segment.adler, segment.length)
    }

    /// Filters and compresses rows `rows` of `pixmap` into `segment`. Kept out of line:
    /// inlined into `append`'s closure it crashes Swift 6.3's optimiser (SILCombine) in
    /// release builds.
    @inline(never)
    private static func encode(
        _ pixmap: Pixmap, rows: Range<Int>, colorType: PNGColorType, filter: PNGRowFilter,
        compressor: SegmentCompressor, previousRow: [UInt8]?, into segment: Segment
    ) {
        let rowBytes = pixmap.width * colorType.channels
        // Straight rows, with the row above first when there is one.
        let hasContext = previousRow != nil || rows.lowerBound > 0
        let straight = segment.straight.reserve((rows.count + 1) * rowBytes)
        var first = straight
        if let previousRow {
            previousRow.withUnsafeBufferPointer { straight.update(from: $0.baseAddress!, count: rowBytes) }
            first += rowBytes
            PNGRows.writeStraight(pixmap, rows: rows, colorType: colorType, to: first)
        } else if rows.lowerBound > 0 {
            PNGRows.writeStraight(pixmap, rows: (rows.lowerBound - 1)..<rows.upperBound, colorType: colorType, to: straight)
            first += rowBytes
        } else {
            PNGRows.writeStraight(pixmap, rows: rows, colorType: colorType, to: straight)
        }
        let length = rows.count * (rowBytes + 1)
        let filtered = segment.filtered.reserve(length)
        belay_png_filter_rows(
            first, rowBytes, hasContext ? straight : nil, UInt32(rows.count), UInt32(rowBytes),
            UInt32(colorType.channels), filter.shimValue, segment.trials.reserve(5 * rowBytes), filtered)
        segment.length = length
        segment.adler = UInt32(truncatingIfNeeded: libdeflate_adler32(1, filtered, length))
        var status = belay_image_status()
        var size = 0
        let result: Int32
        switch compressor {
        case let .zlib(level, strategy):
            let bound = belay_deflate_segment_bound(length)
            let chosen = strategy.resolved(for: filtered, count: length)
            result = belay_deflate_segment(
                filtered, length, Int32(level), chosen.zlibValue, segment.compressed.reserve(bound), bound, &size, &status)
        }
        segment.compressedCount = size
        segment.failure = result == 0 ? nil : "zlib: \(status.text)"
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
}

/// A growable block of bytes reused from one use to the next.
final class ScratchBuffer: @unchecked Sendable {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init() {
        capacity = 0
        pointer = .allocate(capacity: 1)
    }

    /// At least `count` bytes (their contents undefined).
    func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            pointer.deallocate()
            pointer = .allocate(capacity: count)
            capacity = count
        }
        return pointer
    }

    deinit {
        pointer.deallocate()
    }
}
