import BelayRender
import Foundation

/// The real renderer: BelayRender's templates behind the pipeline's renderer protocols.
public final class BelayRewardRenderer: RewardImageRenderer, CollectionImageRenderer {
    public init(settings: RewardRendererSettings) throws {
        throw PipelineError(kind: .rendererUnavailable(message: "BelayRender's templates are not built into this Belay"))
    }

    public var templateVersion: Int { 0 }

    public func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys { fatalError("unreachable") }

    public func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles { fatalError("unreachable") }

    public func contentKey(for request: CollectionRequest) throws -> String { fatalError("unreachable") }

    public func renderPNG(_ request: CollectionRequest, toFile path: String) throws { fatalError("unreachable") }
}
