import BelayCore
import BelayDomain
import Foundation
import Testing

/// One-time passwords against the published vectors: RFC 6238 Appendix B (the SHA-1 rows,
/// eight digits, the secret "12345678901234567890"), RFC 4226 Appendix D (HOTP, six digits,
/// by counter) and RFC 4648's base32 examples.
struct TOTPTests {
    static let secret = Array("12345678901234567890".utf8)

    @Test(arguments: [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ] as [(Int64, String)])
    func rfc6238SHA1Vectors(time: Int64, code: String) {
        let totp = TOTP(secret: Self.secret, digits: 8)
        #expect(totp.code(at: Date(timeIntervalSince1970: TimeInterval(time))) == code)
    }

    @Test func rfc4226HOTPVectorsAreTheStepsCodes() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        let totp = TOTP(secret: Self.secret)
        #expect((0..<10).map { totp.code(step: Int64($0)) } == expected)
    }

    @Test func aCodeIsAcceptedOneStepEitherSideAndNoFurther() {
        let totp = TOTP(secret: Self.secret)
        let now = Date(timeIntervalSince1970: 1_800_000_015)
        let step = totp.step(at: now)
        #expect(totp.matchingStep(of: totp.code(step: step), at: now) == step)
        #expect(totp.matchingStep(of: totp.code(step: step - 1), at: now) == step - 1)
        #expect(totp.matchingStep(of: totp.code(step: step + 1), at: now) == step + 1)
        #expect(totp.matchingStep(of: totp.code(step: step - 2), at: now) == nil)
        #expect(totp.matchingStep(of: totp.code(step: step + 2), at: now) == nil)
        #expect(totp.matchingStep(of: "12345", at: now) == nil)
    }

    @Test func base32AsRFC4648Writes() {
        let vectors = [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI")]
        for (text, encoded) in vectors {
            #expect(Base32.encoded(Array(text.utf8)) == encoded)
            #expect(Base32.decoded(encoded.lowercased() + "===") == Array(text.utf8))
        }
        #expect(Base32.decoded("MZ1W") == nil)
    }

    @Test func theURIAuthenticatorAppsRead() {
        let uri = TOTP(secret: Self.secret).uri(issuer: "Belay Club", account: "mina")
        #expect(uri == "otpauth://totp/Belay%20Club:mina?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Belay%20Club&algorithm=SHA1&digits=6&period=30")
    }
}
