import Synchronization

/// Which characters of a text no font of the chain has, answered from any thread: what a
/// sticker of that text would leave out, without drawing it (the HTTP layer lists them on a
/// reward). One text engine behind a lock; its coverage answers are cached, so a call costs a
/// few dictionary look-ups per character.
public final class FontCoverage: Sendable {
    private let engine: Mutex<TextEngine>

    /// - Throws: `RenderError` (`font_unavailable`) naming a font file that cannot be used.
    public init(fonts: FontSettings) throws {
        engine = Mutex(try TextEngine(fonts: fonts))
    }

    /// The grapheme clusters of `text` that no font of the chain has, in order, once each.
    public func missingCharacters(in text: String, language: String = "ko") -> [Character] {
        engine.withLock { engine in
            (try? engine.missingCharacters(in: text, style: TextStyle(weight: .bold, pixelSize: 16, language: language))) ?? []
        }
    }
}
