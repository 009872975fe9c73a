/// Observations counted into buckets by upper bound, with their sum and count: a histogram's
/// state as a value, which threads can keep privately and add together later.
public struct HistogramCounts: Sendable, Hashable {
    /// Upper bounds, ascending; an implicit `+Inf` bucket follows the last.
    public let bounds: [Double]
    /// `bucketCounts[i]` observations were in (`bounds[i - 1]`, `bounds[i]`].
    private var bucketCounts: [Int]
    /// The observations added up.
    public private(set) var sum: Double = 0
    /// Observations so far (those beyond the last bound included).
    public private(set) var count = 0

    /// No observations yet, with these upper bounds (sorted here).
    public init(bounds: [Double]) {
        self.bounds = bounds.sorted()
        bucketCounts = Array(repeating: 0, count: bounds.count)
    }

    /// The counts of several histograms with `bounds`, added together.
    public init(summing histograms: [HistogramCounts], bounds: [Double]) {
        self.init(bounds: bounds)
        for histogram in histograms {
            precondition(histogram.bounds == self.bounds, "only histograms with the same buckets add up")
            for index in bucketCounts.indices { bucketCounts[index] += histogram.bucketCounts[index] }
            sum += histogram.sum
            count += histogram.count
        }
    }

    /// Records one observation, e.g. a duration in seconds.
    public mutating func observe(_ value: Double) {
        let bucket = Self.bucket(of: value, in: bounds)
        if bucket < bucketCounts.count { bucketCounts[bucket] += 1 }
        sum += value
        count += 1
    }

    /// `cumulativeCounts[i]` observations were ≤ `bounds[i]` (Prometheus' `le` buckets).
    public var cumulativeCounts: [Int] {
        var total = 0
        return bucketCounts.map { count in
            total += count
            return total
        }
    }

    /// The index of the first bound `value` does not exceed (`bounds.count` when none), by
    /// binary search.
    static func bucket(of value: Double, in bounds: [Double]) -> Int {
        var low = 0
        var high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if value <= bounds[middle] { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
