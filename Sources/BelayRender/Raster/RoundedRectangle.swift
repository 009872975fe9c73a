/// A rectangle with circular corners, in pixels. Geometry only: it knows nothing of pixmaps.
public struct RoundedRectangle: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var radius: Double

    public init(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.radius = max(0, min(radius, width / 2, height / 2))
    }

    /// How much of the pixel whose top-left corner is (`column`, `row`) the shape covers,
    /// 0...1, from the signed distance of the pixel's centre to the outline (a one-pixel ramp).
    @inline(__always)
    func coverage(column: Int, row: Int) -> Double {
        let halfWidth = width / 2
        let halfHeight = height / 2
        let qx = abs(Double(column) + 0.5 - (x + halfWidth)) - (halfWidth - radius)
        let qy = abs(Double(row) + 0.5 - (y + halfHeight)) - (halfHeight - radius)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - radius
        return min(1, max(0, 0.5 - distance))
    }

    /// Calls `body(column, coverage)` for every pixel of `row` in `columns` that the shape
    /// covers, with the runs of full coverage passed as one call each to `fullRun`.
    @inline(__always)
    func forEachCoveredPixel(
        row: Int, columns: Range<Int>,
        partial: (_ column: Int, _ coverage: Double) -> Void,
        fullRun: (_ columns: Range<Int>) -> Void
    ) {
        let centre = Double(row) + 0.5
        guard centre > y - 0.5, centre < y + height + 0.5 else { return }
        let left = max(columns.lowerBound, Int((x - 1).rounded(.down)))
        let right = min(columns.upperBound, Int((x + width + 1).rounded(.up)))
        guard left < right else { return }
        // Where the row is at least a pixel inside the top and bottom edges, the span between
        // the corner regions is fully covered: skip the distance computation there.
        let inner = centre >= y + radius + 1 && centre <= y + height - radius - 1
        let edge = inner ? 1.0 : radius + 1
        let innerStart = max(left, Int((x + edge).rounded(.up)))
        let innerEnd = min(right, Int((x + width - edge).rounded(.down)))
        let fullyCoveredRow = centre >= y + 0.5 && centre <= y + height - 0.5
        if fullyCoveredRow && innerStart < innerEnd {
            for column in left..<innerStart { visit(column, row, partial) }
            fullRun(innerStart..<innerEnd)
            for column in innerEnd..<right { visit(column, row, partial) }
        } else {
            for column in left..<right { visit(column, row, partial) }
        }
    }

    @inline(__always)
    private func visit(_ column: Int, _ row: Int, _ partial: (Int, Double) -> Void) {
        let value = coverage(column: column, row: row)
        if value > 0 { partial(column, value) }
    }
}
