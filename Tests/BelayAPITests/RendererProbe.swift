import BelayAPI
import BelayConfig
import BelayPipeline
import BelayTestSupport

/// Whether this build can render stickers (the renderer's templates and fonts are there).
enum RendererProbe {
    static let available: Bool = {
        let defaults = BelayConfiguration.builtInDefaults(relativeTo: BelayProcess.packageRoot.path)
        return (try? BelayRewardRenderer(settings: RewardRendererSettings(configuration: defaults))) != nil
    }()
}
