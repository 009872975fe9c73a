@testable import BelayCore
import Testing

/// Folding and grams: what text search finds rests on them.
@Suite struct SearchTextTests {
    @Test func foldingLowerCasesTakesTheCompatibilityFormAndDropsLatinAccentsOnly() {
        #expect(SearchText.folded("Café CRUX") == "cafe crux")
        #expect(SearchText.folded("ＡＢＣ ｶﾞ") == "abc ガ")  // full-width Latin, half-width kana
        #expect(SearchText.folded("が") == "が")  // the voiced mark is the kana's, not an accent
        #expect(SearchText.folded("홍대 볼더링") == "홍대 볼더링")
    }

    /// The quick path takes only text the thorough one leaves as it is (ASCII only lower-cased),
    /// checked character by character over every range it takes, and on mixed text.
    @Test func theQuickFoldingAgreesWithTheThoroughOneEverywhereItAnswers() {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0xAC00...0xD7A3, 0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30F6]
        var checked = 0
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = "x" + String(Character(scalar)) + "Y"
                #expect(SearchText.foldedQuickly(text) == SearchText.foldedThoroughly(text), "U+\(String(value, radix: 16))")
                checked += 1
            }
        }
        #expect(checked > 30_000)
        for text in ["더클라임 강남점 The Climb", "ボルダリング会 新宿 B-Pump", "Evening bouldering 5.10a / V4"] {
            #expect(SearchText.foldedQuickly(text) == SearchText.foldedThoroughly(text))
        }
        for text in ["Café", "ＡＢＣ", "ｶﾞ", "Ünïcode", "ﬁ"] {
            #expect(SearchText.foldedQuickly(text) == nil, "\(text) needs the thorough folding")
        }
    }

    @Test func gramKeysAreTheIndexedGramsAsNumbers() {
        for text in ["더클라임 강남점", "a b cd", "홍대 볼더링 번개 v4", "ボルダリング会"] {
            let folded = SearchText.folded(text)
            let grams = SearchText.indexedGrams(ofFolded: folded).split(separator: " ").map { SearchText.gramKey(String($0)) }
            #expect(Set(grams) == SearchText.gramKeys(ofFolded: folded), "\(text)")
        }
    }
}
