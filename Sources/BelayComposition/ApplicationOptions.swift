import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayPipeline

/// Choices `buildApplication` leaves to its caller: tests swap the renderer, the clock and
/// where logs go.
public struct ApplicationOptions: Sendable {
    /// Makes one sticker/story renderer per render worker; nil for the real renderer.
    public var rendererFactory: RewardImageRendererFactory?
    /// Renders collections; nil for the real one.
    public var collections: (any CollectionImageSource)?
    /// Where log lines go (standard error by default).
    public var logSink: any LogSink
    /// The domain's clock.
    public var clock: any TimeSource
    /// How long a successful authentication is trusted before the database is asked again
    /// (how soon a token revoked with the CLI stops working).
    public var tokenCacheLifetime: Duration
    /// How long a meetup or page of meetups is served from memory; changes made through this
    /// server show at once, changes made by the CLI within this time. Zero turns it off.
    public var responseCacheLifetime: Duration
    /// How long a public share page is served from memory (a revocation shows after this
    /// plus the pages' 30 s HTTP cache lifetime). Zero turns it off.
    public var sharePageCacheLifetime: Duration

    public init(rendererFactory: RewardImageRendererFactory? = nil, collections: (any CollectionImageSource)? = nil,
                logSink: any LogSink = StandardErrorLogSink(), clock: any TimeSource = SystemTimeSource(),
                tokenCacheLifetime: Duration = .seconds(1), responseCacheLifetime: Duration = .seconds(1),
                sharePageCacheLifetime: Duration = .seconds(10)) {
        self.sharePageCacheLifetime = sharePageCacheLifetime
        self.rendererFactory = rendererFactory
        self.collections = collections
        self.logSink = logSink
        self.clock = clock
        self.tokenCacheLifetime = tokenCacheLifetime
        self.responseCacheLifetime = responseCacheLifetime
    }
}
