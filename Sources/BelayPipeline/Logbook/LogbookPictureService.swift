import BelayCore
import BelayDomain
import BelayRender
import Foundation
import Synchronization

/// Draws members' logbook pictures (the grade pyramid) on a thread of its own, with the same
/// text engine as the stickers: a request never holds an HTTP thread, and at most
/// `queueCapacity` wait or draw at once (beyond that it is refused with a `Retry-After`, as
/// collection images are). One renderer is kept between requests.
public final class LogbookPictureService: Sendable {
    public typealias Completion = @Sendable (Result<RenderedImage, any Error>) -> Void

    private let settings: RenderSettings
    private let threads: BoundedWorkQueue
    private let idle = Mutex<PictureRendererBox?>(nil)
    private let queueCapacity: Int
    /// The `Retry-After` of a refusal: a picture takes tens of milliseconds.
    static let retryAfterSeconds = 2

    public init(settings: RenderSettings, queueCapacity: Int = 32) {
        self.settings = settings
        self.queueCapacity = queueCapacity
        threads = BoundedWorkQueue(name: "belay-logbook-pictures", threads: 1, capacity: queueCapacity)
    }

    /// Draws `content` as a pyramid PNG; `completion` gets it on the service's thread, or at
    /// once with a `PipelineError` (`retryAfterSeconds`) when the queue is full.
    public func pyramid(_ content: PyramidContent, then completion: @escaping Completion) {
        let admitted = threads.submit { [self] in
            completion(Result { try withRenderer { try $0.renderPyramid(content) } })
        }
        if !admitted {
            completion(.failure(PipelineError(kind: .queueFull(what: "logbook pictures", capacity: queueCapacity,
                                                               retryAfterSeconds: Self.retryAfterSeconds))))
        }
    }

    /// Draws `content` on the calling thread (the command line).
    /// - Throws: `RenderError`, or `PipelineError.rendererUnavailable` when the fonts cannot be opened.
    public func pyramid(_ content: PyramidContent) throws -> RenderedImage {
        try withRenderer { try $0.renderPyramid(content) }
    }

    private func withRenderer<T>(_ body: (Renderer) throws -> T) throws -> T {
        let box: PictureRendererBox
        if let kept = idle.withLock({ $0.take() }) {
            box = kept
        } else {
            do {
                box = PictureRendererBox(try Renderer(settings: settings))
            } catch {
                throw PipelineError(kind: .rendererUnavailable(message: "\(error)"))
            }
        }
        defer { idle.withLock { if $0 == nil { $0 = box } } }
        return try body(box.renderer)
    }
}

/// Moves the renderer between the service and the one thread using it.
private final class PictureRendererBox: @unchecked Sendable {
    let renderer: Renderer
    init(_ renderer: Renderer) { self.renderer = renderer }
}
