import Foundation

/// A request to check a member in to a meetup.
public struct CheckInRequest: Sendable, Hashable {
    /// How the check-in is vouched for.
    public enum Proof: Sendable, Hashable {
        /// The member typed the code shown by the host (the member acts for themselves).
        case code(String)
        /// A host or admin checks the member in now.
        case host
        /// A host or admin records a check-in made earlier without a connection; the
        /// instant must lie inside the check-in window and not in the future.
        case offline(at: Date)
    }

    public var meetupID: Int64
    public var memberID: Int64
    public var proof: Proof
    /// The client's `Idempotency-Key`: a retry with the same key and the same request
    /// returns the first result; the same key with a different request is refused. Keys
    /// are scoped to the caller and remembered only for successful check-ins.
    public var idempotencyKey: String?

    public init(meetupID: Int64, memberID: Int64, proof: Proof, idempotencyKey: String? = nil) {
        self.meetupID = meetupID
        self.memberID = memberID
        self.proof = proof
        self.idempotencyKey = idempotencyKey
    }

    /// What makes two requests "the same" for an idempotency key. A code check-in is the
    /// same whatever code it carries: the code rotates, and an app retrying a request whose
    /// answer was lost sends the code shown now, not the one it sent first.
    var fingerprint: String {
        switch proof {
        case .code: return "\(meetupID)|\(memberID)|code"
        case .host: return "\(meetupID)|\(memberID)|host"
        case let .offline(at): return "\(meetupID)|\(memberID)|offline|\(at.millisecondsSince1970)"
        }
    }

    /// Whether a key remembered with `stored` was used for this same request. Keys stored
    /// before the code left the fingerprint carry it as a last part, which is ignored.
    func isSameRequest(asFingerprint stored: String) -> Bool {
        let current = fingerprint
        if stored == current { return true }
        if case .code = proof { return stored.hasPrefix(current + "|") }
        return false
    }

    var method: CheckInMethod {
        switch proof {
        case .code: return .code
        case .host: return .host
        case .offline: return .offline
        }
    }
}

/// The outcome of a successful (or repeated) check-in.
public struct CheckInResult: Sendable, Hashable {
    /// The attendance, now `checked_in`.
    public let attendance: Attendance
    /// The reward, or nil while the catalogue has nothing to award (the backfill adds it later).
    public let reward: Reward?
    /// True when the member was already checked in (or the idempotency key was seen):
    /// nothing changed and this is the first result again (HTTP 200 rather than 201).
    public let isRepeat: Bool
}
