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

    @Test func decodingBase64URLIsStrict() {
        #expect(Crypto.decodeBase64URL("") == [])
        #expect(Crypto.decodeBase64URL("Zm9vYmFy") == Array("foobar".utf8))
        #expect(Crypto.decodeBase64URL("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Crypto.decodeBase64URL("Zg") == Array("f".utf8))
        // Padding, the standard alphabet's symbols, whitespace, lengths no encoding has, and
        // non-zero unused bits ("Zh" would also read as "f") are all refused: one text, one meaning.
        for refused in ["Zg==", "+/+/", "Z", "Zm9vY", "Zm 9v", " Zm9v", "Zm9v\n", "AA=A", "====", "Zh", "Zm9!"] {
            #expect(Crypto.decodeBase64URL(refused) == nil, "\(refused)")
        }
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
