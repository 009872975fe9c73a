import CUnibreak

/// Line-break opportunities of a text (UAX #14), from libunibreak.
///
/// libunibreak 1.1 (Debian 12) aborts on regional indicators (flags): an assertion fails for
/// their line-break class. A flag is a single grapheme cluster that breaks like an
/// ideographic emoji, so its indicators are given to libunibreak as U+1F3F3 (WAVING WHITE
/// FLAG, class ID) instead; breaks are only ever taken between clusters.
enum LineBreaks {
    private static let ready: Void = init_linebreak()

    /// For each index `i` in `1..<characters.count`, whether a line may break before
    /// `characters[i]`; index 0 is always false. With `keepAll` (CSS `word-break: keep-all`,
    /// how Korean is set) there is no opportunity between two letters or digits, so a line
    /// breaks between words; the caller breaks inside a word only when one word alone does
    /// not fit.
    static func opportunities(_ characters: [Character], language: String, keepAll: Bool = false) -> [Bool] {
        _ = ready
        var utf8: [UInt8] = []
        var lastByte: [Int] = []
        for character in characters {
            if character.unicodeScalars.contains(where: { (0x1F1E6...0x1F1FF).contains($0.value) }) {
                utf8.append(contentsOf: "\u{1F3F3}".utf8)
            } else {
                utf8.append(contentsOf: String(character).utf8)
            }
            lastByte.append(utf8.count - 1)
        }
        var breaks = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: utf8.count)
        utf8.withUnsafeBufferPointer { text in
            language.withCString { set_linebreaks_utf8(text.baseAddress, text.count, $0, &breaks) }
        }
        var allowed = [Bool](repeating: false, count: characters.count)
        for index in characters.indices.dropFirst() {
            let status = Int32(breaks[lastByte[index - 1]])
            allowed[index] = status == LINEBREAK_ALLOWBREAK || status == LINEBREAK_MUSTBREAK
            if keepAll, allowed[index], isWordCharacter(characters[index - 1]), isWordCharacter(characters[index]) {
                allowed[index] = false
            }
        }
        return allowed
    }

    /// Whether `text` is set with `keep-all`: it has Hangul and no kana (Japanese breaks
    /// between any two letters, Korean between words).
    static func keepsWordsWhole(_ text: [Character]) -> Bool {
        var hasHangul = false
        for character in text {
            for scalar in character.unicodeScalars {
                switch scalar.value {
                case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return false
                case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: hasHangul = true
                default: break
                }
            }
        }
        return hasHangul
    }

    /// A letter or digit (with its marks): what `keep-all` keeps together.
    private static func isWordCharacter(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        switch first.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}
