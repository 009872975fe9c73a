import Foundation

/// Everything the renderer needs beyond a request. BelayComposition fills the fonts and
/// limits from config.json (`fonts`, `render`); the rest has defaults that suit a worker in
/// a pool.
public struct RenderSettings: Sendable, Hashable {
    /// The fallback chain's font files.
    public var fonts: FontSettings
    /// The largest artwork accepted.
    public var limits: ImageLimits
    /// How PNGs are compressed (the thread count is taken from `parallelism`).
    public var png: PNGSettings
    /// Cores one render may use for resampling and PNG compression. Keep 1 when several
    /// renders run at once (render workers, the backfill): they already fill the cores, and
    /// splitting each render only adds overhead. A one-off render (the CLI) can use them all.
    public var parallelism: Int
    /// Bytes of decoded artwork a renderer keeps to reuse (artworks repeat from render to
    /// render); 0 turns the cache off. The default holds what renders reuse for the whole
    /// shipped catalogue: each background scaled to the sticker card and each hold fitted to
    /// its box at 3x (about 34 MB), with room for a few decoded originals, which are only
    /// needed to make those (a smaller cache sends a backfill decoding the same PNGs again
    /// and again; a larger one only grows each worker's memory).
    public var artworkCacheBytes: Int

    public init(
        fonts: FontSettings, limits: ImageLimits, png: PNGSettings = .default,
        parallelism: Int = 1, artworkCacheBytes: Int = 40 << 20
    ) {
        self.fonts = fonts
        self.limits = limits
        self.png = png
        self.parallelism = max(1, parallelism)
        self.artworkCacheBytes = max(0, artworkCacheBytes)
    }

    var pngSettings: PNGSettings {
        var settings = png
        settings.threads = parallelism
        return settings
    }
}
