import BelayCore
import Synchronization

/// The badge answers anyone may ask for, kept exactly as long as what they are made of: the
/// issuer profile (`/issuer`) until the key files change, and each key's signed status list
/// (`/badges/status/{thumbprint}`) until the key files or the revocations (the revoked reward
/// ids, the highest reward id) change. Each answer is stored with a text naming its inputs
/// and served while the inputs read now are the same.
///
/// Bounded: one answer per name, and names are stored only for keys that exist (the issuer,
/// and one status list per key the club has ever made).
final class BadgeAnswerCache: Sendable {
    private struct Answer: Sendable {
        let inputs: String
        let bytes: [UInt8]
    }

    private let answers = Mutex<[String: Answer]>([:])

    /// The bytes stored as `name`, when they were built from `inputs`.
    func answer(_ name: String, inputs: String) -> [UInt8]? {
        answers.withLock { answers in
            guard let answer = answers[name], answer.inputs == inputs else { return nil }
            return answer.bytes
        }
    }

    func store(_ bytes: [UInt8], as name: String, inputs: String) {
        answers.withLock { $0[name] = Answer(inputs: inputs, bytes: bytes) }
    }

    /// Names the revocations a status list is made of: a digest of the revoked ids and the
    /// highest reward id.
    static func inputs(revoked: [Int64], highestID: Int64) -> String {
        var text = "\(highestID):"
        text.reserveCapacity(revoked.count * 8 + 16)
        for id in revoked { text += "\(id)," }
        return ContentDigest.hex(of: Array(text.utf8))
    }
}
