import BelayCore
import Foundation

/// A lease row: who holds a named job (such as the backfill) and until when.
public struct Lease: Sendable, Hashable {
    /// What is held, e.g. `backfill`.
    public let name: String
    /// Unique per holder (`host:pid:nonce`); pass it back to `renew` and `release`.
    public let holderID: String
    /// The machine the holder runs on.
    public let host: String
    /// The holder's process id on that machine.
    public let pid: Int32
    /// What the holder is doing, shown to whoever is refused (`belay backfill --jobs 2`).
    public let purpose: String
    public let acquiredAt: Date
    public let renewedAt: Date
    /// After this instant anyone may take the lease over.
    public let expiresAt: Date

    /// A sentence naming the holder, for messages: "held by pid 4242 on db-1 (belay backfill),
    /// since 2026-11-29T01:00:00Z, until 2026-11-29T01:00:30Z unless renewed".
    public var holderDescription: String {
        return "held by pid \(pid) on \(host) (\(purpose)) since \(RFC3339.string(from: acquiredAt, fraction: .none)), "
            + "until \(RFC3339.string(from: expiresAt, fraction: .none)) unless renewed"
    }
}

/// Who asks for a lease.
public struct LeaseClaimant: Sendable, Hashable {
    /// Unique per claimant; `host:pid:nonce` by convention (see `init(host:pid:purpose:)`).
    public let holderID: String
    public let host: String
    public let pid: Int32
    public let purpose: String

    /// A claimant for this process, with a fresh random nonce so two runs in one process differ.
    public init(host: String, pid: Int32, purpose: String) {
        self.host = host
        self.pid = pid
        self.purpose = purpose
        holderID = "\(host):\(pid):\(UInt32.random(in: 0 ... .max))"
    }

    /// A claimant with a holder id of the caller's making (unique per claimant, e.g.
    /// `host:pid@started:nonce`, so the process can be recognised as gone later).
    public init(holderID: String, host: String, pid: Int32, purpose: String) {
        self.holderID = holderID
        self.host = host
        self.pid = pid
        self.purpose = purpose
    }
}

/// The answer to `LeaseService.acquire`.
public enum LeaseAcquisition: Sendable, Hashable {
    /// The caller holds the lease now. `tookOverFrom` is the previous holder when its lease
    /// had run out or its process was gone.
    case acquired(Lease, tookOverFrom: Lease?)
    /// Someone else holds it; nothing changed.
    case heldByOther(Lease)
}
