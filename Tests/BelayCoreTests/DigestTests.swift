import BelayCore
import Foundation
import Testing

@Suite struct DigestTests {
    @Test func sha256AndHexMatchTheStandardVectors() {
        #expect(ContentDigest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentDigest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentDigest.hex(of: Array("abc".utf8)) == ContentDigest.hex(of: "abc"))
        #expect(Crypto.hex([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
    }

    /// The Foundation decoding Belay used before, as the reference.
    private static func foundationDecode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { Array($0) }
    }

    @Test func decodingBase64URLAcceptsAndRefusesWhatFoundationDid() {
        #expect(Crypto.decodeBase64URL("") == [])
        #expect(Crypto.decodeBase64URL("Zm9vYmFy") == Array("foobar".utf8))
        #expect(Crypto.decodeBase64URL("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Crypto.decodeBase64URL("Zg") == Array("f".utf8))
        #expect(Crypto.decodeBase64URL("Zg==") == Array("f".utf8))
        for refused in ["Z", "Zg===", "Zm9v!", "Zm 9v", " Zm9v", "Zm9v\n", "Zm=9v", "Zm9vY", "Z===", "===="] {
            #expect(Crypto.decodeBase64URL(refused) == nil, "\(refused)")
        }
        // Foundation read an `=` inside the text as a zero ("AA=A" gave [0, 0]), padding alone as
        // a zero byte, and took more padding than the last block needs; those are refused now.
        #expect(Self.foundationDecode("AA=A") == [0, 0])
        #expect(Crypto.decodeBase64URL("AA=A") == nil)
        // Every string of up to five characters over letters, digits, both alphabets' symbols,
        // padding and a space: the same answer as before, but for those.
        let alphabet: [Character] = ["A", "g", "z", "0", "-", "_", "+", "/", "=", " "]
        var strings = [""]
        var differences: [String] = []
        for _ in 0..<5 {
            strings = strings.flatMap { prefix in alphabet.map { prefix + String($0) } }
            for text in strings where Crypto.decodeBase64URL(text) != Self.foundationDecode(text) {
                let unpadded = text.prefix { $0 != "=" }
                let padding = text.dropFirst(unpadded.count)
                let paddingInside = padding.contains { $0 != "=" } || unpadded.isEmpty
                let paddingBeyondTheBlock = padding.count > (4 - unpadded.count % 4) % 4
                if !((paddingInside || paddingBeyondTheBlock) && Crypto.decodeBase64URL(text) == nil) { differences.append(text) }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(20))")
    }

    @Test func base64URLIsRFC4648sURLAlphabetWithoutPadding() {
        #expect(Crypto.base64URL([]) == "")
        #expect(Crypto.base64URL(Array("f".utf8)) == "Zg")
        #expect(Crypto.base64URL(Array("fo".utf8)) == "Zm8")
        #expect(Crypto.base64URL(Array("foo".utf8)) == "Zm9v")
        #expect(Crypto.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Crypto.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_", "62 and 63 are - and _")
        // Every length up to 100, against Foundation's standard alphabet translated by hand.
        var generator = SystemRandomNumberGenerator()
        for count in 0...100 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Crypto.base64URL(bytes) == expected)
            #expect(Crypto.decodeBase64URL(Crypto.base64URL(bytes)) == bytes)
        }
    }

    @Test func hmacMatchesRFC4231() {
        let key = [UInt8](repeating: 0x0B, count: 20)
        #expect(Crypto.hex(Crypto.hmacSHA256(key: key, message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func aContentKeyIsNamedByTheDigestOfItsText() {
        let key = ContentKey(canonical: "belay-render\ntemplate=hold-sticker")
        #expect(key.digest == ContentDigest.hex(of: key.canonical))
        #expect(key.description == key.digest)
        #expect(ContentDigest.isDigest(Substring(key.digest)))
        #expect(!ContentDigest.isDigest(Substring(key.digest.uppercased())))
        #expect(!ContentDigest.isDigest("abc"))
    }

    @Test func hashingPieceByPieceGivesTheDigestOfTheWhole() {
        let whole = Array("belay-row 1\nbelay-row 2\n".utf8) + [UInt8](repeating: 0xA5, count: 70_000)
        let hasher = SHA256Hasher()
        hasher.update(Array(whole[..<5]))
        hasher.update([])
        hasher.update(Array(whole[5...]))
        #expect(hasher.finish() == Crypto.sha256(whole))
        let empty = SHA256Hasher()
        #expect(Crypto.hex(empty.finish()) == ContentDigest.hex(of: ""))
    }
}
