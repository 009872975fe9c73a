import Foundation

/// Scales premultiplied pixels with a separable Lanczos-3 filter (widened when shrinking, so
/// downscaling averages every source pixel), in 14-bit fixed point.
enum Resampler {
    private static let precision: Int32 = 14
    private static let lobes = 3.0

    /// The source taps and weights of every output pixel along one axis.
    struct Kernel {
        var starts: [Int]
        var counts: [Int]
        var weights: [Int32]
        var stride: Int

        /// Maps `outputCount` pixels onto the source span `origin..<origin + length` of an axis
        /// `sourceCount` pixels long; taps outside the axis are dropped and the rest renormalised.
        init(outputCount: Int, sourceCount: Int, origin: Double, length: Double) {
            let scale = length / Double(outputCount)
            let filterScale = max(scale, 1)
            let support = Resampler.lobes * filterScale
            stride = Int((support * 2).rounded(.up)) + 2
            starts = [Int](repeating: 0, count: outputCount)
            counts = [Int](repeating: 0, count: outputCount)
            weights = [Int32](repeating: 0, count: outputCount * stride)
            var floating = [Double](repeating: 0, count: stride)
            let one = Double(1 << Resampler.precision)
            for output in 0..<outputCount {
                let centre = origin + (Double(output) + 0.5) * scale
                var low = max(0, Int((centre - support).rounded(.down)))
                let high = min(sourceCount, Int((centre + support).rounded(.up)))
                if low >= high { low = max(0, min(sourceCount - 1, Int(centre))) }
                let count = max(1, min(stride, high - low))
                var total = 0.0
                for tap in 0..<count {
                    let weight = Resampler.lanczos((Double(low + tap) + 0.5 - centre) / filterScale)
                    floating[tap] = weight
                    total += weight
                }
                if total == 0 {
                    floating[0] = 1
                    total = 1
                }
                var fixedTotal: Int32 = 0
                var largest = 0
                for tap in 0..<count {
                    let value = Int32((floating[tap] / total * one).rounded())
                    weights[output * stride + tap] = value
                    fixedTotal += value
                    if abs(value) > abs(weights[output * stride + largest]) { largest = tap }
                }
                // Make the weights sum to exactly one so flat areas stay exactly flat.
                weights[output * stride + largest] += Int32(one) - fixedTotal
                starts[output] = low
                counts[output] = count
            }
        }

        var sourceRange: Range<Int> {
            guard let first = starts.first else { return 0..<0 }
            var low = first
            var high = first
            for index in starts.indices {
                low = min(low, starts[index])
                high = max(high, starts[index] + counts[index])
            }
            return low..<high
        }
    }

    @inline(__always)
    static func lanczos(_ x: Double) -> Double {
        let distance = abs(x)
        if distance < 1e-9 { return 1 }
        if distance >= lobes { return 0 }
        let px = Double.pi * distance
        return lobes * sin(px) * sin(px / lobes) / (px * px)
    }

    /// Scales the region `(x, y, width, height)` of `source` (fractional pixels allowed) to
    /// `width` x `height` pixels.
    static func resample(
        _ source: Pixmap, region: (x: Double, y: Double, width: Double, height: Double),
        toWidth width: Int, height: Int, parallelism: Int
    ) -> Pixmap {
        let horizontal = Kernel(
            outputCount: width, sourceCount: source.width, origin: region.x, length: region.width)
        let vertical = Kernel(
            outputCount: height, sourceCount: source.height, origin: region.y, length: region.height)
        let rows = vertical.sourceRange
        let intermediateRowBytes = width * 4
        var intermediate = [UInt8](repeating: 0, count: rows.count * intermediateRowBytes)
        var output = Pixmap(width: width, height: height)

        source.bytes.withUnsafeBufferPointer { sourcePixels in
            intermediate.withUnsafeMutableBufferPointer { middle in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    let pointers = UncheckedSendable((sourcePixels.baseAddress!, middle.baseAddress!, weights.baseAddress!))
                    Parallel.forEachPiece(of: rows.count, parallelism: parallelism, minimumPiece: 32) { _, range in
                        let (sourceBase, middleBase, weightBase) = pointers.value
                        for index in range {
                            let sourceRow = sourceBase + (rows.lowerBound + index) * source.width * 4
                            let middleRow = middleBase + index * intermediateRowBytes
                            horizontalPass(
                                sourceRow: sourceRow, outputRow: middleRow, kernel: horizontal, weights: weightBase)
                        }
                    }
                }
            }
        }
        intermediate.withUnsafeBufferPointer { middle in
            output.bytes.withUnsafeMutableBufferPointer { pixels in
                vertical.weights.withUnsafeBufferPointer { weights in
                    let pointers = UncheckedSendable((middle.baseAddress!, pixels.baseAddress!, weights.baseAddress!))
                    Parallel.forEachPiece(of: height, parallelism: parallelism, minimumPiece: 32) { _, range in
                        let (middleBase, outputBase, weightBase) = pointers.value
                        let accumulator = UnsafeMutablePointer<Int32>.allocate(capacity: intermediateRowBytes)
                        defer { accumulator.deallocate() }
                        for row in range {
                            verticalPass(
                                row: row, kernel: vertical, weights: weightBase,
                                middle: middleBase + (vertical.starts[row] - rows.lowerBound) * intermediateRowBytes,
                                rowBytes: intermediateRowBytes, accumulator: accumulator,
                                outputRow: outputBase + row * intermediateRowBytes)
                        }
                    }
                }
            }
        }
        return output
    }

    @inline(__always)
    private static func clampToByte(_ value: Int32) -> UInt8 {
        let shifted = (value &+ (1 << (precision - 1))) >> precision
        return UInt8(truncatingIfNeeded: shifted < 0 ? 0 : (shifted > 255 ? 255 : shifted))
    }

    private static func horizontalPass(
        sourceRow: UnsafePointer<UInt8>, outputRow: UnsafeMutablePointer<UInt8>,
        kernel: Kernel, weights: UnsafePointer<Int32>
    ) {
        let stride = kernel.stride
        kernel.starts.withUnsafeBufferPointer { starts in
            kernel.counts.withUnsafeBufferPointer { counts in
                for x in 0..<starts.count {
                    var pixel = sourceRow + starts[x] * 4
                    let taps = weights + x * stride
                    var r: Int32 = 0
                    var g: Int32 = 0
                    var b: Int32 = 0
                    var a: Int32 = 0
                    for tap in 0..<counts[x] {
                        let weight = taps[tap]
                        r &+= Int32(pixel[0]) &* weight
                        g &+= Int32(pixel[1]) &* weight
                        b &+= Int32(pixel[2]) &* weight
                        a &+= Int32(pixel[3]) &* weight
                        pixel += 4
                    }
                    let alpha = clampToByte(a)
                    let out = outputRow + x * 4
                    out[0] = min(clampToByte(r), alpha)
                    out[1] = min(clampToByte(g), alpha)
                    out[2] = min(clampToByte(b), alpha)
                    out[3] = alpha
                }
            }
        }
    }

    private static func verticalPass(
        row: Int, kernel: Kernel, weights: UnsafePointer<Int32>, middle: UnsafePointer<UInt8>,
        rowBytes: Int, accumulator: UnsafeMutablePointer<Int32>, outputRow: UnsafeMutablePointer<UInt8>
    ) {
        accumulator.initialize(repeating: 0, count: rowBytes)
        let taps = weights + row * kernel.stride
        for tap in 0..<kernel.counts[row] {
            let weight = taps[tap]
            let line = middle + tap * rowBytes
            for index in 0..<rowBytes {
                accumulator[index] &+= Int32(line[index]) &* weight
            }
        }
        var index = 0
        while index < rowBytes {
            let alpha = clampToByte(accumulator[index + 3])
            outputRow[index] = min(clampToByte(accumulator[index]), alpha)
            outputRow[index + 1] = min(clampToByte(accumulator[index + 1]), alpha)
            outputRow[index + 2] = min(clampToByte(accumulator[index + 2]), alpha)
            outputRow[index + 3] = alpha
            index += 4
        }
    }
}

extension Pixmap {
    /// This image scaled to `width` x `height` with a Lanczos-3 filter on premultiplied alpha.
    public func resized(toWidth width: Int, height: Int, parallelism: Int = 1) -> Pixmap {
        Resampler.resample(
            self, region: (0, 0, Double(self.width), Double(self.height)),
            toWidth: width, height: height, parallelism: parallelism)
    }

    /// This image scaled to fill `width` x `height`, keeping its aspect ratio and cropping the
    /// centre of whichever side overflows (CSS `object-fit: cover`).
    public func resizedToCover(width: Int, height: Int, parallelism: Int = 1) -> Pixmap {
        let scale = max(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let regionWidth = Double(width) / scale
        let regionHeight = Double(height) / scale
        return Resampler.resample(
            self,
            region: ((Double(self.width) - regionWidth) / 2, (Double(self.height) - regionHeight) / 2, regionWidth, regionHeight),
            toWidth: width, height: height, parallelism: parallelism)
    }

    /// This image scaled to the largest size that fits in `width` x `height` keeping its
    /// aspect ratio (CSS `object-fit: contain`); the result is at most that size.
    public func resizedToFit(width: Int, height: Int, parallelism: Int = 1) -> Pixmap {
        let scale = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let fittedWidth = max(1, min(width, Int((Double(self.width) * scale).rounded())))
        let fittedHeight = max(1, min(height, Int((Double(self.height) * scale).rounded())))
        return resized(toWidth: fittedWidth, height: fittedHeight, parallelism: parallelism)
    }
}
