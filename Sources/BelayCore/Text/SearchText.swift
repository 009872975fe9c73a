/// Text folded for search and cut into the grams the search indexes hold.
///
/// Folding lower-cases, takes the compatibility form (full-width Latin and half-width kana
/// become ordinary) and strips accents from Latin, Greek and Cyrillic letters only (a Japanese
/// voiced mark is part of the kana, not an accent). Grams are every two neighbouring letters or
/// digits within a word, and a one-letter word itself: a two-syllable Korean word such as 강남
/// is one gram, so an index of grams finds it inside 더클라임강남점, which a word index (one
/// token for the whole) and a trigram index (nothing shorter than three) cannot.
public enum SearchText {
    /// `text` folded: lower case, compatibility form, no Latin accents.
    public static func folded(_ text: String) -> String {
        if let folded = foldedQuickly(text) { return folded }
        return foldedThoroughly(text)
    }

    /// `text` folded when it is ASCII, Hangul syllables, CJK ideographs and kana alone, which
    /// every step but ASCII's lower-casing leaves as they are; nil for any other text. Searches
    /// fold what is typed on every request, and the normalisations cost several microseconds.
    static func foldedQuickly(_ text: String) -> String? {
        var hasCapitals = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: hasCapitals = true
            case 0x00...0x7F, 0xAC00...0xD7A3, 0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30F6: continue
            default: return nil
            }
        }
        return hasCapitals ? String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self) : text
    }

    static func foldedThoroughly(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastBase: Unicode.Scalar = " "
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark, lastBase.value < 0x0530 { continue }
            lastBase = scalar
            scalars.append(scalar)
        }
        return String(scalars).precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// The words of folded text: runs of letters, marks and digits.
    public static func words(ofFolded text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isInWord(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// Whether `scalar` belongs to a word: a letter, a mark or a digit.
    private static func isInWord(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
            || properties.generalCategory == .spacingMark
    }

    /// A gram as one number (its two scalars' values, or one scalar's for a one-letter word):
    /// what an index held in memory keys on, without a string per gram.
    public static func gramKey(_ gram: String) -> UInt64 {
        var scalars = gram.unicodeScalars.makeIterator()
        let first = scalars.next().map { UInt64($0.value) } ?? 0
        return first << 32 | (scalars.next().map { UInt64($0.value) } ?? 0xFFFF_FFFF)
    }

    /// The distinct grams of folded text as `gramKey` numbers: `indexedGrams`, without the strings.
    public static func gramKeys(ofFolded text: String) -> Set<UInt64> {
        var keys = Set<UInt64>()
        var previous: Unicode.Scalar?
        var wordLength = 0
        func endWord() {
            if wordLength == 1, let previous { keys.insert(UInt64(previous.value) << 32 | 0xFFFF_FFFF) }
            wordLength = 0
            previous = nil
        }
        for scalar in text.unicodeScalars {
            guard isInWord(scalar) else { endWord(); continue }
            if let previous { keys.insert(UInt64(previous.value) << 32 | UInt64(scalar.value)) }
            previous = scalar
            wordLength += 1
        }
        endWord()
        return keys
    }

    /// The grams of one folded word: its neighbouring pairs of characters, or itself when it
    /// is one character long.
    public static func grams(ofWord word: String) -> [String] {
        let characters = Array(word.unicodeScalars)
        guard characters.count > 1 else { return characters.isEmpty ? [] : [word] }
        return (0..<(characters.count - 1)).map { index in
            var gram = String.UnicodeScalarView()
            gram.append(characters[index])
            gram.append(characters[index + 1])
            return String(gram)
        }
    }

    /// The distinct grams of folded text, space-separated in first-seen order: what the index holds.
    public static func indexedGrams(ofFolded text: String) -> String {
        var seen = Set<String>()
        var distinct: [String] = []
        for word in words(ofFolded: text) {
            for gram in grams(ofWord: word) where seen.insert(gram).inserted { distinct.append(gram) }
        }
        return distinct.joined(separator: " ")
    }
}
