import Synchronization

/// Which characters of a text no font of the chain has, answered from any thread: what a
/// sticker of that text would leave out, without drawing it (the HTTP layer lists them on a
/// reward). One text engine behind a lock; its coverage answers are cached, so a call costs a
/// few dictionary look-ups per character, and the answer for a text asked about before (every
/// reward of a meetup names its place) costs one.
public final class FontCoverage: Sendable {
    private let engine: Mutex<TextEngine>
    private let answers = Mutex<[Question: [Character]]>([:])
    /// The most answers kept; when full they are forgotten together (place names are few).
    private static let answersKept = 4_096

    private struct Question: Hashable {
        let text: String
        let language: String
    }

    /// - Throws: `RenderError` (`font_unavailable`) naming a font file that cannot be used.
    public init(fonts: FontSettings) throws {
        engine = Mutex(try TextEngine(fonts: fonts))
    }

    /// The grapheme clusters of `text` that no font of the chain has, in order, once each.
    public func missingCharacters(in text: String, language: String = "ko") -> [Character] {
        let question = Question(text: text, language: language)
        if let known = answers.withLock({ $0[question] }) { return known }
        let missing = engine.withLock { engine in
            (try? engine.missingCharacters(in: text, style: TextStyle(weight: .bold, pixelSize: 16, language: language))) ?? []
        }
        answers.withLock { answers in
            if answers.count >= Self.answersKept { answers.removeAll(keepingCapacity: true) }
            answers[question] = missing
        }
        return missing
    }
}
