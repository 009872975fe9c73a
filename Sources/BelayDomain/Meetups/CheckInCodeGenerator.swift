import BelayCore
import Foundation
import Synchronization

/// Rotating six-digit check-in codes: HMAC-SHA256 of the meetup's secret and the time
/// step (seconds since 1970 divided by the step length, as an 8-byte big-endian integer),
/// truncated as in RFC 4226 (HOTP) to 6 decimal digits.
struct CheckInCodeGenerator: Sendable {
    let stepSeconds: Int
    /// Codes already computed: a burst of check-ins at one meetup asks for the same two codes
    /// thousands of times, each an HMAC.
    private let recent = RecentCodes()

    init(stepSeconds: Int) {
        self.stepSeconds = stepSeconds
    }

    /// The time step that contains `instant`.
    func step(at instant: Date) -> Int64 {
        Int64((instant.timeIntervalSince1970 / Double(stepSeconds)).rounded(.down))
    }

    /// The code of `step`.
    func code(secret: [UInt8], step: Int64) -> String {
        recent.code(secret: secret, step: step) { Self.computeCode(secret: secret, step: step) }
    }

    private static func computeCode(secret: [UInt8], step: Int64) -> String {
        var message = [UInt8](repeating: 0, count: 8)
        var value = UInt64(bitPattern: step)
        for index in (0..<8).reversed() {
            message[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        let digest = Crypto.hmacSHA256(key: secret, message: message)
        let offset = Int(digest[digest.count - 1] & 0x0F)
        let truncated = (UInt32(digest[offset] & 0x7F) << 24) | (UInt32(digest[offset + 1]) << 16)
            | (UInt32(digest[offset + 2]) << 8) | UInt32(digest[offset + 3])
        let number = truncated % 1_000_000
        let digits = String(number)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The code current at `instant`, with its validity, for a meetup in `timeZone`.
    func current(secret: [UInt8], at instant: Date, timeZone: String) -> CheckInCode {
        let step = step(at: instant)
        let start = Date(timeIntervalSince1970: Double(step) * Double(stepSeconds))
        return CheckInCode(code: code(secret: secret, step: step), validFrom: start,
                           expiresAt: start.addingTimeInterval(Double(stepSeconds)), stepSeconds: stepSeconds, timeZone: timeZone)
    }

    /// The code to show at `instant`: the current one, or the next when the current one has
    /// less than `CheckInCode.showAheadSeconds` left (it would expire while being typed).
    func shown(secret: [UInt8], at instant: Date, timeZone: String) -> CheckInCode {
        let now = current(secret: secret, at: instant, timeZone: timeZone)
        guard now.expiresAt.timeIntervalSince(instant) < CheckInCode.showAheadSeconds else { return now }
        return current(secret: secret, at: now.expiresAt, timeZone: timeZone)
    }

    /// True when `candidate` is the code of the step containing `instant` or of the one
    /// before (so a code read just before it rotated still works), or of the next one in the
    /// last `CheckInCode.showAheadSeconds` before it starts (when it is shown already). Spaces
    /// and tabs around the code are ignored (a pasted code often carries them).
    func accepts(_ candidate: String, secret: [UInt8], at instant: Date) -> Bool {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var trimmed = ArraySlice(candidate.utf8)
        while let first = trimmed.first, isBlank(first) { trimmed.removeFirst() }
        while let last = trimmed.last, isBlank(last) { trimmed.removeLast() }
        guard trimmed.count == 6 else { return false }
        let candidateBytes = Array(trimmed)
        let current = step(at: instant)
        var matched = false
        let shownAhead = step(at: instant.addingTimeInterval(CheckInCode.showAheadSeconds))
        for step in shownAhead == current ? [current, current - 1] : [shownAhead, current, current - 1] {
            // Compare without an early exit so timing does not reveal how much matched.
            let expected = Array(code(secret: secret, step: step).utf8)
            var difference: UInt8 = 0
            for index in 0..<6 { difference |= expected[index] ^ candidateBytes[index] }
            if difference == 0 { matched = true }
        }
        return matched
    }
}

/// A small, bounded memory of computed codes, keyed by secret and step.
private final class RecentCodes: Sendable {
    private struct Key: Hashable {
        let secret: [UInt8]
        let step: Int64
    }

    private let codes = Mutex<[Key: String]>([:])
    private let capacity = 4096

    func code(secret: [UInt8], step: Int64, compute: () -> String) -> String {
        let key = Key(secret: secret, step: step)
        if let known = codes.withLock({ $0[key] }) { return known }
        let code = compute()
        codes.withLock { codes in
            if codes.count >= capacity { codes.removeAll(keepingCapacity: true) }
            codes[key] = code
        }
        return code
    }
}
