#if canImport(Glibc)
import Glibc
#endif

/// Lets a render worker reuse its buffers from one render to the next. Each render allocates
/// the same large buffers (the 3x sticker and 1080x1920 story pixmaps, PNG rows and deflate
/// output: up to about 8 MB each) and frees them at its end. Mapped on their own (glibc's
/// default for blocks that large, or any fixed threshold below them), every render pays the
/// kernel to map, zero-fill and unmap them again: measured on `belay backfill --jobs 2`, 10.5 s
/// of system time in 58 s of CPU. With the threshold above the largest buffer and a trim
/// threshold above a render's working set, they come from the worker thread's arena and its
/// pages stay mapped for the next render: 3.2 s of system time, 11% less CPU in all, for a
/// peak RSS of 172 MB instead of 157 MB.
enum AllocatorTuning {
    /// Allocations above this are mapped on their own: above every render buffer.
    static let mmapThreshold: Int32 = 32 << 20
    /// Free memory at the top of an arena beyond this is given back to the system: above a
    /// render's working set, so the next render finds its pages mapped.
    static let trimThreshold: Int32 = 64 << 20

    /// `M_MMAP_THRESHOLD` and `M_TRIM_THRESHOLD` from glibc's `<malloc.h>`, which Swift's
    /// Glibc module does not include. Setting either also stops glibc adjusting them itself.
    private static let mmapThresholdParameter: Int32 = -3
    private static let trimThresholdParameter: Int32 = -1

    private static let applied: Void = {
        #if canImport(Glibc)
        // mallopt is looked up at run time: <malloc.h> is not part of the Glibc module.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(mmapThresholdParameter, mmapThreshold)
        _ = mallopt(trimThresholdParameter, trimThreshold)
        #endif
    }()

    /// Applies the setting to this process (once; later calls do nothing).
    static func apply() { _ = applied }
}
