import CImageShim

/// The PNG row filter applied before compression.
public enum PNGRowFilter: String, Sendable, Hashable, CaseIterable {
    case none, sub, up, average, paeth
    /// Per row, the filter whose output has the smallest sum of magnitudes (libpng's and
    /// Pillow's default heuristic).
    case adaptive

    var shimValue: Int32 {
        switch self {
        case .none: 0
        case .sub: 1
        case .up: 2
        case .average: 3
        case .paeth: 4
        case .adaptive: 5
        }
    }
}

/// zlib's match-finding strategy.
public enum ZlibStrategy: String, Sendable, Hashable, CaseIterable {
    case `default`, filtered, huffmanOnly = "huffman_only", rle
    /// Per segment of rows: `rle` where the filtered rows hold runs (flat areas, gradients,
    /// transparency), `huffman_only` where they do not (photographic artwork, on which short
    /// runs cost more bits than the literals they replace, and the run search costs time).
    case automatic = "auto"

    /// zlib's value; `automatic` looks at the data (see `resolved(for:)`) and is `rle` when it
    /// cannot (libpng's writer).
    var zlibValue: Int32 {
        switch self {
        case .default: 0
        case .filtered: 1
        case .huffmanOnly: 2
        case .rle, .automatic: 3
        }
    }

    /// The strategy for one segment of filtered rows.
    func resolved(for filtered: UnsafePointer<UInt8>, count: Int) -> ZlibStrategy {
        guard self == .automatic else { return self }
        // Long runs over more than 1 in 16 bytes pay for the run search; fewer do not. The
        // count can stop as soon as it passes that.
        return belay_run_bytes(filtered, count, count / 16 + 1) * 16 > count ? .rle : .huffmanOnly
    }
}

/// How PNGs are compressed. Changing these changes bytes and speed, never pixels.
public struct PNGSettings: Hashable, Sendable {
    public enum Compressor: Hashable, Sendable {
        /// zlib (level 0–9 and a strategy) inside Belay's PNG writer: rows are cut into
        /// segments compressed independently (on `threads` cores) and joined into one stream.
        case zlib(level: Int, strategy: ZlibStrategy)
        /// libdeflate (level 1–12) over the whole image at once, on one core.
        case libdeflate(level: Int)
        /// libpng's own writer (level 0–9 and a strategy), on one core.
        case libpng(level: Int, strategy: ZlibStrategy)
    }

    public var filter: PNGRowFilter
    public var compressor: Compressor
    /// Cores one encode may use (the zlib compressor only); 1 inside a pool of render workers.
    public var threads: Int

    public init(filter: PNGRowFilter = .adaptive, compressor: Compressor = .zlib(level: 1, strategy: .automatic), threads: Int = 1) {
        self.filter = filter
        self.compressor = compressor
        self.threads = max(1, threads)
    }

    /// Adaptive filtering and zlib at level 1 with the `auto` strategy (run-length matching
    /// for segments with long runs, Huffman coding alone for photographic ones), chosen by
    /// measurement (bench/png-settings, numbers in bench/RENDER.md): on the benchmark sticker
    /// 5% smaller than Pillow's default (zlib 6, adaptive) and ~12% less CPU than `rle`; on
    /// the story (gradient rows are runs) 7% smaller. libdeflate level 1 is faster but 9–16%
    /// larger. Callers outside a worker pool raise `threads` to split the deflate across cores.
    public static let `default` = PNGSettings()
}
