import CImageShim

/// Turns premultiplied pixmap rows into the bytes PNG stores: straight-alpha RGBA or RGB, then
/// filtered (each row prefixed with its filter type).
enum PNGRows {
    /// Straight-alpha rows `rows` of `pixmap` in `colorType`'s layout, written to `output`.
    static func writeStraight(
        _ pixmap: Pixmap, rows: Range<Int>, colorType: PNGColorType, to output: UnsafeMutablePointer<UInt8>
    ) {
        pixmap.bytes.withUnsafeBufferPointer { pixels in
            let first = pixels.baseAddress! + rows.lowerBound * pixmap.width * 4
            let count = rows.count * pixmap.width
            switch colorType {
            case .rgba: belay_unpremultiply(first, count, output)
            // Premultiplied colour is the colour flattened onto black.
            case .rgb: belay_rgba_to_rgb(first, count, output)
            }
        }
    }

    static func straight(_ pixmap: Pixmap, rows: Range<Int>, colorType: PNGColorType) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rows.count * pixmap.width * colorType.channels) { buffer, count in
            writeStraight(pixmap, rows: rows, colorType: colorType, to: buffer.baseAddress!)
            count = buffer.count
        }
    }

    /// Filtered rows `rows` of `pixmap`: `(1 + width * channels)` bytes per row. The row above
    /// the range comes from `previousRow` when given (the last row of an earlier band) or from
    /// the pixmap itself.
    static func filtered(
        _ pixmap: Pixmap, rows: Range<Int>, colorType: PNGColorType, filter: PNGRowFilter,
        previousRow: [UInt8]? = nil
    ) -> [UInt8] {
        let rowBytes = pixmap.width * colorType.channels
        let hasContext = previousRow != nil || rows.lowerBound > 0
        let sourceRows = (previousRow == nil && rows.lowerBound > 0 ? rows.lowerBound - 1 : rows.lowerBound)..<rows.upperBound
        let straightCount = (rows.count + (hasContext ? 1 : 0)) * rowBytes
        var straight = [UInt8](unsafeUninitializedCapacity: straightCount) { _, count in count = straightCount }
        straight.withUnsafeMutableBufferPointer { buffer in
            var start = buffer.baseAddress!
            if let previousRow {
                previousRow.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: rowBytes) }
                start += rowBytes
            }
            writeStraight(pixmap, rows: sourceRows, colorType: colorType, to: start)
        }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * rowBytes)
        defer { scratch.deallocate() }
        return [UInt8](unsafeUninitializedCapacity: rows.count * (rowBytes + 1)) { output, count in
            straight.withUnsafeBufferPointer { input in
                let first = input.baseAddress! + (hasContext ? rowBytes : 0)
                belay_png_filter_rows(
                    first, rowBytes, hasContext ? input.baseAddress! : nil, UInt32(rows.count), UInt32(rowBytes),
                    UInt32(colorType.channels), filter.shimValue, scratch, output.baseAddress!)
            }
            count = output.count
        }
    }
}
