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

    /// Draws `content` as a season recap story; as `pyramid(_:then:)`.
    public func recap(_ content: RecapContent, then completion: @escaping Completion) {
        let admitted = threads.submit { [self] in
            completion(Result { try withRenderer { try $0.renderRecap(content) } })
        }
        if !admitted {
            completion(.failure(PipelineError(kind: .queueFull(what: "logbook pictures", capacity: queueCapacity,
                                                               retryAfterSeconds: Self.retryAfterSeconds))))
        }
    }

    /// A season of `summary` as a recap story: sessions, sends and the hardest send, the
    /// pyramid of the axis with more sends, and the three places climbed most (`placeName`
    /// names a session's gym or crag).
    public static func recapContent(summary: LogbookSummary, name: String, preferences: LogbookPreferences, locale: String,
                                    placeName: (LogbookSummary.Session) -> String) -> RecapContent {
        let words = LogbookPictureWords(locale: locale)
        let axis = summary.axes.max { $0.pyramid.reduce(0) { $0 + $1.sends + $1.flashes } < $1.pyramid.reduce(0) { $0 + $1.sends + $1.flashes } }
        let pyramid = pyramidContent(axis, summary: summary, name: name, preferences: preferences, locale: locale, axisName: axis?.axis ?? .boulder)
        let sends = summary.sessions.reduce(0) { $0 + $1.sends }
        let hardest = axis?.hardestSend.map { GradeTable.display($0.range, from: $0.gradeScale, in: preferences.scale($0.range.axis)) } ?? "–"
        var visits: [String: Int] = [:]
        var order: [String] = []
        for session in summary.sessions {
            let place = placeName(session)
            if visits[place] == nil { order.append(place) }
            visits[place, default: 0] += 1
        }
        let places = order.sorted { (visits[$0] ?? 0, -(order.firstIndex(of: $0) ?? 0)) > (visits[$1] ?? 0, -(order.firstIndex(of: $1) ?? 0)) }
            .prefix(3).map { "\($0) · \(visits[$0] ?? 0)" }
        return RecapContent(title: "\(name) · \(words.recap)", subtitle: summary.from.map { "\($0) – \(summary.to)" } ?? words.allTime,
                            figures: [.init(value: String(summary.sessions.count), caption: words.sessions),
                                      .init(value: String(sends), caption: words.sends), .init(value: hardest, caption: words.hardest)],
                            steps: pyramid.steps, placesHeading: words.places, places: Array(places),
                            sendsWord: words.sends, flashesWord: words.flashes, language: words.language)
    }

    /// Draws `content` on the calling thread (the command line).
    /// - Throws: `RenderError`, or `PipelineError.rendererUnavailable` when the fonts cannot be opened.
    /// Draws a meetup's link-preview card (`meetup-card`) off the calling thread; `completion`
    /// gets the PNG, or `PipelineError.queueFull` when too many pictures wait already.
    public func meetupCard(_ content: MeetupCardContent, then completion: @escaping Completion) {
        let admitted = threads.submit { [self] in
            completion(Result { try withRenderer { try $0.renderMeetupCard(content) } })
        }
        if !admitted {
            completion(.failure(PipelineError(kind: .queueFull(what: "pictures", capacity: queueCapacity,
                                                               retryAfterSeconds: Self.retryAfterSeconds))))
        }
    }

    public func pyramid(_ content: PyramidContent) throws -> RenderedImage {
        try withRenderer { try $0.renderPyramid(content) }
    }

    /// Draws `content` on the calling thread (the command line).
    /// - Throws: as `pyramid(_:)`.
    public func recap(_ content: RecapContent) throws -> RenderedImage {
        try withRenderer { try $0.renderRecap(content) }
    }

    /// The pyramid of one axis of `summary`, in the club's language and the member's scale.
    public static func pyramidContent(_ axis: LogbookSummary.Axis?, summary: LogbookSummary, name: String, preferences: LogbookPreferences,
                               locale: String, axisName: GradeAxis) -> PyramidContent {
        let scale = preferences.scale(axisName)
        let steps = (axis?.pyramid ?? []).map { step in
            PyramidContent.Step(label: GradeTable.display(step.range, from: scale, in: scale), sends: step.sends, flashes: step.flashes,
                                colour: step.colour)
        }
        return pyramidContent(steps: steps, name: name, period: summary.from.map { "\($0) – \(summary.to)" }, locale: locale, axisName: axisName)
    }

    /// A pyramid of `steps` (hardest first) titled with `name`, in the words of `locale`;
    /// `period` nil says "all time".
    public static func pyramidContent(steps: [PyramidContent.Step], name: String, period: String?, locale: String,
                                      axisName: GradeAxis) -> PyramidContent {
        let words = LogbookPictureWords(locale: locale)
        return PyramidContent(title: "\(name) · \(words.title)",
                              subtitle: "\(axisName == .boulder ? words.boulders : words.routes) · \(period ?? words.allTime)",
                              steps: steps, sendsWord: words.sends, flashesWord: words.flashes, language: words.language)
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
