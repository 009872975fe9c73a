/// How a label may be fitted into its width: shrunk in steps down to `minimumScale` of its
/// size, then wrapped onto up to `maxLines` lines at line-break opportunities (UAX #14), then
/// ellipsised.
public struct LabelFit: Hashable, Sendable {
    public var maxWidth: Double
    public var minimumScale: Double
    public var scaleStep: Double
    public var maxLines: Int

    public init(maxWidth: Double, minimumScale: Double = 1, scaleStep: Double = 0.05, maxLines: Int = 1) {
        self.maxWidth = maxWidth
        self.minimumScale = min(1, max(0.1, minimumScale))
        self.scaleStep = max(0.01, scaleStep)
        self.maxLines = max(1, maxLines)
    }

    /// The scales tried, largest first: 1, 1 - step, … down to `minimumScale`.
    var scales: [Double] {
        var scales: [Double] = []
        var scale = 1.0
        while scale > minimumScale + 1e-9 {
            scales.append(scale)
            scale -= scaleStep
        }
        scales.append(minimumScale)
        return scales
    }
}
