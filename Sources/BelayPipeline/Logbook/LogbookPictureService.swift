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

    /// The pyramid of one axis of `summary`, in the club's language and the member's scale.
    public static func pyramidContent(_ axis: LogbookSummary.Axis?, summary: LogbookSummary, name: String, preferences: LogbookPreferences,
                               locale: String, axisName: GradeAxis) -> PyramidContent {
        let language = Locale(identifier: locale).language.languageCode?.identifier ?? "en"
        let words: (title: String, boulders: String, routes: String, sends: String, flashes: String, allTime: String) = switch language {
        case "ko": ("그레이드 피라미드", "볼더링", "리드·톱로프", "완등", "플래시", "전체 기간")
        case "ja": ("グレードピラミッド", "ボルダー", "ルート", "完登", "フラッシュ", "全期間")
        default: ("Grade pyramid", "Boulders", "Routes", "sends", "flashes", "all time")
        }
        let scale = preferences.scale(axisName)
        let steps = (axis?.pyramid ?? []).map { step in
            PyramidContent.Step(label: GradeTable.display(step.range, from: scale, in: scale), sends: step.sends, flashes: step.flashes,
                                colour: step.colour)
        }
        let period = summary.from.map { "\($0) – \(summary.to)" } ?? words.allTime
        return PyramidContent(title: "\(name) · \(words.title)", subtitle: "\(axisName == .boulder ? words.boulders : words.routes) · \(period)",
                              steps: steps, sendsWord: words.sends, flashesWord: words.flashes,
                              language: ["ko", "ja"].contains(language) ? language : "en")
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
