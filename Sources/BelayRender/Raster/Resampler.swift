import CImageShim
import Foundation

/// Scales premultiplied pixels with a separable Lanczos-3 filter (widened when shrinking, so
/// downscaling averages every source pixel), in 14-bit fixed point: a vertical pass over the
/// source columns the result needs, then a horizontal pass (the loops are C kernels in
/// CImageShim, see there why).
enum Resampler {
    private static let lobes = 3.0

    /// The source taps and weights of every output pixel along one axis.
    struct Kernel {
        var starts: [Int32]
        var counts: [Int32]
        var weights: [Int32]
        var stride: Int

        /// Maps `outputCount` pixels onto the source span `origin..<origin + length` of an axis
        /// `sourceCount` pixels long; taps outside the axis are dropped and the rest renormalised.
        init(outputCount: Int, sourceCount: Int, origin: Double, length: Double) {
            let scale = length / Double(outputCount)
            let filterScale = max(scale, 1)
            let support = Resampler.lobes * filterScale
            stride = Int((support * 2).rounded(.up)) + 2
            starts = [Int32](repeating: 0, count: outputCount)
            counts = [Int32](repeating: 0, count: outputCount)
            weights = [Int32](repeating: 0, count: outputCount * stride)
            var floating = [Double](repeating: 0, count: stride)
            let one = Double(1 << 14)
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
                starts[output] = Int32(low)
                counts[output] = Int32(count)
            }
        }

        /// The source pixels any output reads.
        var sourceRange: Range<Int> {
            var low = Int.max
            var high = Int.min
            for index in starts.indices {
                low = min(low, Int(starts[index]))
                high = max(high, Int(starts[index] + counts[index]))
            }
            return low..<high
        }

        /// The kernel with its taps counted from `offset` instead of 0.
        func shifted(by offset: Int) -> Kernel {
            var copy = self
            copy.starts = starts.map { $0 - Int32(offset) }
            return copy
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
        let horizontal = Kernel(outputCount: width, sourceCount: source.width, origin: region.x, length: region.width)
        let vertical = Kernel(outputCount: height, sourceCount: source.height, origin: region.y, length: region.height)
        let columns = horizontal.sourceRange
        let horizontalTaps = horizontal.shifted(by: columns.lowerBound)
        // The horizontal kernel multiplies 16-bit pairs; 14-bit weights always fit.
        let horizontalWeights16 = horizontalTaps.weights.map { Int16(clamping: $0) }
        let middleStride = columns.count * 4
        let sourceStride = source.width * 4
        var result = Pixmap(uninitializedWidth: width, height: height)
        // Each piece of output rows runs both passes through its own band of the intermediate.
        source.bytes.withUnsafeBufferPointer { sourcePixels in
            result.bytes.withUnsafeMutableBufferPointer { output in
                vertical.starts.withUnsafeBufferPointer { verticalStarts in
                    vertical.counts.withUnsafeBufferPointer { verticalCounts in
                        vertical.weights.withUnsafeBufferPointer { verticalWeights in
                            horizontalTaps.starts.withUnsafeBufferPointer { horizontalStarts in
                                horizontalTaps.counts.withUnsafeBufferPointer { horizontalCounts in
                                    horizontalWeights16.withUnsafeBufferPointer { horizontalWeights in
                                        let pointers = UncheckedSendable((
                                            sourcePixels.baseAddress! + columns.lowerBound * 4, output.baseAddress!,
                                            verticalStarts.baseAddress!, verticalCounts.baseAddress!, verticalWeights.baseAddress!,
                                            horizontalStarts.baseAddress!, horizontalCounts.baseAddress!, horizontalWeights.baseAddress!))
                                        Parallel.forEachPiece(of: height, parallelism: parallelism, minimumPiece: 16) { _, rows in
                                            let (source, output, vStarts, vCounts, vWeights, hStarts, hCounts, hWeights) = pointers.value
                                            // Bands of up to 32 rows keep the intermediate in cache.
                                            let band = 32
                                            let middle = UnsafeMutablePointer<UInt8>.allocate(capacity: band * middleStride)
                                            let accumulator = UnsafeMutablePointer<Int32>.allocate(capacity: middleStride)
                                            defer {
                                                middle.deallocate()
                                                accumulator.deallocate()
                                            }
                                            var row = rows.lowerBound
                                            while row < rows.upperBound {
                                                let count = min(band, rows.upperBound - row)
                                                belay_resample_rows(
                                                    source, sourceStride, middle, middleStride, UInt32(middleStride), UInt32(count),
                                                    vStarts + row, vCounts + row, vWeights + row * vertical.stride, UInt32(vertical.stride),
                                                    accumulator)
                                                belay_resample_columns(
                                                    middle, middleStride, output + row * width * 4, width * 4, UInt32(count), UInt32(width),
                                                    hStarts, hCounts, hWeights, UInt32(horizontalTaps.stride))
                                                row += count
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
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
