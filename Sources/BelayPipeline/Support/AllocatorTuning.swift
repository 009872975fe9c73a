#if canImport(Glibc)
import Glibc
#endif

/// Keeps a render process's memory flat: glibc raises its mmap threshold as large blocks
/// are freed, after which the render buffers (decoded artworks, pixmaps, PNG rows, a few
/// hundred KB to a few MB each) come from heap arenas that are never given back, and peak
/// RSS grows with every worker thread's arena. A fixed threshold of 256 KiB makes every
/// such buffer a mapping of its own, returned to the system when freed (measured on the
/// backfill with two workers: 227 MB → 187 MB peak RSS).
enum AllocatorTuning {
    /// The threshold above which allocations are mapped on their own.
    static let mmapThreshold: Int32 = 256 << 10

    /// `M_MMAP_THRESHOLD` from glibc's `<malloc.h>`, which Swift's Glibc module does not include.
    private static let mmapThresholdParameter: Int32 = -3

    private static let applied: Void = {
        #if canImport(Glibc)
        // mallopt is looked up at run time: <malloc.h> is not part of the Glibc module.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThresholdParameter, mmapThreshold)
        #endif
    }()

    /// Applies the setting to this process (once; later calls do nothing).
    static func apply() { _ = applied }
}
