import BelayCore
import Foundation

/// Time-based one-time passwords (RFC 6238, over HOTP of RFC 4226) with HMAC-SHA1, the
/// algorithm every authenticator app computes: the code of a moment is the HOTP of the number
/// of `period`-second steps since the Unix epoch.
public struct TOTP: Sendable, Equatable {
    /// The shared secret (Belay makes 20 random bytes, SHA-1's block-friendly size).
    public let secret: [UInt8]
    /// Digits per code: 6 in authenticator apps; RFC 6238's test vectors use 8.
    public let digits: Int
    /// Seconds per step.
    public let period: Int

    public init(secret: [UInt8], digits: Int = 6, period: Int = 30) {
        precondition((6...8).contains(digits) && period > 0, "TOTP takes 6 to 8 digits and a positive period")
        self.secret = secret
        self.digits = digits
        self.period = period
    }

    /// The step `date` falls in.
    public func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code of `step`: HOTP's dynamic truncation of HMAC-SHA1(secret, step as 8 big-endian bytes).
    public func code(step: Int64) -> String {
        var counter = [UInt8](repeating: 0, count: 8)
        var value = UInt64(bitPattern: step)
        for index in stride(from: 7, through: 0, by: -1) {
            counter[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        let digest = Crypto.hmacSHA1(key: secret, message: counter)
        let offset = Int(digest[19] & 0x0F)
        let binary = UInt32(digest[offset] & 0x7F) << 24 | UInt32(digest[offset + 1]) << 16 | UInt32(digest[offset + 2]) << 8
            | UInt32(digest[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The code shown at `date`.
    public func code(at date: Date) -> String { code(step: step(at: date)) }

    /// The step within `window` steps of `date` (a clock a little off, a code typed as it
    /// changed) whose code is `code`, compared in constant time; nil when none is.
    public func matchingStep(of code: String, at date: Date, window: Int64 = 1) -> Int64? {
        let given = Array(code.utf8)
        let now = step(at: date)
        var found: Int64?
        // Every candidate is computed and compared, so the time taken says nothing of which matched.
        for candidate in (now - window)...(now + window) {
            let expected = Array(self.code(step: candidate).utf8)
            guard expected.count == given.count else { continue }
            var difference: UInt8 = 0
            for (a, b) in zip(expected, given) { difference |= a ^ b }
            if difference == 0 && found == nil { found = candidate }
        }
        return found
    }

    /// The `otpauth://totp/…` URI authenticator apps read from a QR code: the label
    /// `issuer:account`, the secret in base32, and the algorithm, digits and period spelled out.
    public func uri(issuer: String, account: String) -> String {
        let label = Self.escaped(issuer) + ":" + Self.escaped(account)
        return "otpauth://totp/\(label)?secret=\(Base32.encoded(secret))&issuer=\(Self.escaped(issuer))&algorithm=SHA1&digits=\(digits)&period=\(period)"
    }

    private static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
