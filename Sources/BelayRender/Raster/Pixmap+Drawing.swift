import CImageShim

/// Stateless drawing operations: each takes what it draws and where, and changes only the
/// pixels it covers.
extension Pixmap {
    /// Composites `source` over this pixmap (Porter-Duff source-over) with its top-left corner
    /// at (`x`, `y`); parts outside this pixmap are skipped.
    public mutating func draw(_ source: Pixmap, x: Int, y: Int) {
        guard let columns = Self.overlap(x, source.width, width), let rows = Self.overlap(y, source.height, height) else { return }
        let destinationWidth = width
        source.bytes.withUnsafeBufferPointer { sourcePixels in
            bytes.withUnsafeMutableBufferPointer { pixels in
                guard let sourceBase = sourcePixels.baseAddress, let base = pixels.baseAddress else { return }
                for row in rows {
                    let s = ((row - y) * source.width + (columns.lowerBound - x)) * 4
                    let d = (row * destinationWidth + columns.lowerBound) * 4
                    belay_composite_over(sourceBase + s, base + d, columns.count)
                }
            }
        }
    }

    /// Composites `color` over the pixels a coverage mask covers: `mask` holds
    /// `maskWidth * maskHeight` coverage bytes (0 = none, 255 = full), its top-left at (`x`, `y`).
    /// This is how glyphs are drawn.
    mutating func drawMask(
        _ mask: UnsafeBufferPointer<UInt8>, maskWidth: Int, maskHeight: Int, x: Int, y: Int, color: Color
    ) {
        guard let columns = Self.overlap(x, maskWidth, width), let rows = Self.overlap(y, maskHeight, height) else { return }
        let (r, g, b, a) = color.premultiplied
        let destinationWidth = width
        bytes.withUnsafeMutableBufferPointer { pixels in
            for row in rows {
                var m = (row - y) * maskWidth + (columns.lowerBound - x)
                var d = (row * destinationWidth + columns.lowerBound) * 4
                for _ in columns {
                    let coverage = mask[m]
                    if coverage != 0 {
                        let alpha = Pixmap.multiply(a, coverage)
                        let inverse = 255 - alpha
                        pixels[d] = Pixmap.multiply(r, coverage) &+ Pixmap.multiply(pixels[d], inverse)
                        pixels[d + 1] = Pixmap.multiply(g, coverage) &+ Pixmap.multiply(pixels[d + 1], inverse)
                        pixels[d + 2] = Pixmap.multiply(b, coverage) &+ Pixmap.multiply(pixels[d + 2], inverse)
                        pixels[d + 3] = alpha &+ Pixmap.multiply(pixels[d + 3], inverse)
                    }
                    m += 1
                    d += 4
                }
            }
        }
    }

    /// Keeps only what lies inside `shape`, anti-aliased; everything outside becomes transparent.
    public mutating func clip(to shape: RoundedRectangle) {
        let pixmapWidth = width
        bytes.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<height {
                let rowStart = row * pixmapWidth * 4
                // Columns are visited left to right; every column the shape skips is cleared.
                var cursor = 0
                @inline(__always) func clear(upTo column: Int) {
                    if cursor < column {
                        for index in (rowStart + cursor * 4)..<(rowStart + column * 4) { pixels[index] = 0 }
                    }
                }
                shape.forEachCoveredPixel(
                    row: row, columns: 0..<pixmapWidth,
                    partial: { column, coverage in
                        clear(upTo: column)
                        let amount = UInt8((coverage * 255).rounded())
                        let index = rowStart + column * 4
                        pixels[index] = Pixmap.multiply(pixels[index], amount)
                        pixels[index + 1] = Pixmap.multiply(pixels[index + 1], amount)
                        pixels[index + 2] = Pixmap.multiply(pixels[index + 2], amount)
                        pixels[index + 3] = Pixmap.multiply(pixels[index + 3], amount)
                        cursor = column + 1
                    },
                    fullRun: { run in
                        clear(upTo: run.lowerBound)
                        cursor = run.upperBound
                    })
                clear(upTo: pixmapWidth)
            }
        }
    }

    /// Composites `color` over the pixels `shape` covers, anti-aliased at its outline.
    public mutating func fill(_ shape: RoundedRectangle, color: Color) {
        fill(shape, color: color, rowOffset: 0)
    }

    /// Like `fill(_:color:)` with the shape given in the coordinates of a taller image of which
    /// this pixmap is the band starting at `rowOffset` (banded rendering).
    mutating func fill(_ shape: RoundedRectangle, color: Color, rowOffset: Int) {
        let (r, g, b, a) = color.premultiplied
        let pixmapWidth = width
        let top = Int(shape.y.rounded(.down)) - 1
        guard let rows = Self.overlap(top - rowOffset, Int((shape.y + shape.height).rounded(.up)) + 2 - top, height) else { return }
        // A row of the colour, composited over each fully covered run at once (the same
        // arithmetic as `blend` at full coverage, a vector at a time).
        var colourRow = [UInt8](repeating: 0, count: pixmapWidth * 4)
        for index in stride(from: 0, to: colourRow.count, by: 4) {
            (colourRow[index], colourRow[index + 1], colourRow[index + 2], colourRow[index + 3]) = (r, g, b, a)
        }
        colourRow.withUnsafeBufferPointer { colourPixels in
            bytes.withUnsafeMutableBufferPointer { pixels in
                @inline(__always) func blend(_ index: Int, _ coverage: UInt8) {
                    let alpha = Pixmap.multiply(a, coverage)
                    let inverse = 255 - alpha
                    pixels[index] = Pixmap.multiply(r, coverage) &+ Pixmap.multiply(pixels[index], inverse)
                    pixels[index + 1] = Pixmap.multiply(g, coverage) &+ Pixmap.multiply(pixels[index + 1], inverse)
                    pixels[index + 2] = Pixmap.multiply(b, coverage) &+ Pixmap.multiply(pixels[index + 2], inverse)
                    pixels[index + 3] = alpha &+ Pixmap.multiply(pixels[index + 3], inverse)
                }
                for row in rows {
                    let rowStart = row * pixmapWidth * 4
                    shape.forEachCoveredPixel(
                        row: row + rowOffset, columns: 0..<pixmapWidth,
                        partial: { column, coverage in
                            blend(rowStart + column * 4, UInt8((coverage * 255).rounded()))
                        },
                        fullRun: { run in
                            guard let colour = colourPixels.baseAddress, let base = pixels.baseAddress else { return }
                            belay_composite_over(colour, base + rowStart + run.lowerBound * 4, run.count)
                        })
                }
            }
        }
    }

    /// Fills every row with the colour of a vertical linear gradient from `top` (first row) to
    /// `bottom` (last row).
    public mutating func fillVerticalGradient(top: Color, bottom: Color) {
        fillVerticalGradient(top: top, bottom: bottom, rowOffset: 0, totalHeight: height)
    }

    /// The rows `rowOffset..<rowOffset + height` of a gradient spanning `totalHeight` rows.
    mutating func fillVerticalGradient(top: Color, bottom: Color, rowOffset: Int, totalHeight: Int) {
        let span = Double(max(1, totalHeight - 1))
        let pixmapWidth = width
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for row in 0..<height {
                let t = Double(row + rowOffset) / span
                func mix(_ from: UInt8, _ to: UInt8) -> UInt8 {
                    UInt8((Double(from) + (Double(to) - Double(from)) * t).rounded())
                }
                let color = Color(
                    red: mix(top.red, bottom.red), green: mix(top.green, bottom.green),
                    blue: mix(top.blue, bottom.blue), alpha: mix(top.alpha, bottom.alpha))
                let (r, g, b, a) = color.premultiplied
                let packed = (UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24).littleEndian
                let start = row * pixmapWidth
                for index in start..<(start + pixmapWidth) { words[index] = packed }
            }
        }
    }

    /// The part of `start..<start + length` inside `0..<limit`, or nil when they do not meet.
    @inline(__always)
    static func overlap(_ start: Int, _ length: Int, _ limit: Int) -> Range<Int>? {
        let low = max(0, start)
        let high = min(limit, start + length)
        return low < high ? low..<high : nil
    }
}
