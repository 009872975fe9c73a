import Synchronization

/// Accepts a client's request id when it is sane, otherwise makes one: a random per-process
/// prefix plus a counter, unique across restarts without a system call per request.
struct RequestIDGenerator: Sendable {
    private let prefix: String
    private let counter = SharedCounter()

    final class SharedCounter: Sendable {
        let value = Atomic<UInt64>(0)
    }

    init() {
        var generator = SystemRandomNumberGenerator()
        let random = UInt32.random(in: .min ... .max, using: &generator)
        let hex = String(random, radix: 16)
        prefix = String(repeating: "0", count: 8 - hex.count) + hex + "-"
    }

    /// The incoming id when it is 1–128 characters of `A–Z a–z 0–9 - _ . :`, otherwise a new one.
    func id(accepting incoming: String?) -> String {
        if let incoming, Self.isSane(incoming) { return incoming }
        let number = counter.value.add(1, ordering: .relaxed).newValue
        return prefix + String(number, radix: 16)
    }

    static func isSane(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
    }
}
