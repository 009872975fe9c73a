import BelayCore
import BelayStorage
import Foundation

/// Named leases that keep a job (the reward backfill) to one holder at a time across every
/// process sharing the database.
///
/// A lease lasts `duration` seconds from its last renewal; the holder renews it while it
/// works. A holder that dies cannot keep it: once `expiresAt` has passed anyone may take it
/// over, and `acquire` also takes over at once from a holder that `isGone` says has
/// vanished (a process on this host that no longer exists).
public final class LeaseService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    public init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Takes the lease `name` for `duration` seconds unless someone else holds it.
    /// - Parameters:
    ///   - isGone: asked about the current holder when its lease has not yet run out; true
    ///     takes it over (pass a check that the holder's process is alive).
    /// - Returns: `.acquired` or `.heldByOther` with the holder to name in the refusal.
    /// - Throws: `DomainError` for a duration under 1 s, or `storage_failure`.
    public func acquire(_ name: String, as claimant: LeaseClaimant, duration: TimeInterval,
                        isGone: (Lease) -> Bool = { _ in false }) throws -> LeaseAcquisition {
        guard duration >= 1 else { throw DomainError.invalid("duration", "A lease lasts at least 1 second (got \(duration))") }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let current = try LeaseRepository.find(name: name, in: db)
                if let current, current.holderID != claimant.holderID, current.expiresAt > now, !isGone(current) {
                    return .heldByOther(current)
                }
                try LeaseRepository.upsert(name: name, claimant: claimant, now: now,
                                           expiresAt: now.addingTimeInterval(duration), in: db)
                let lease = try LeaseRepository.find(name: name, in: db)!
                let previous = current.flatMap { $0.holderID == claimant.holderID ? nil : $0 }
                return .acquired(lease, tookOverFrom: previous)
            }
        }
    }

    /// Extends a held lease to `duration` seconds from now.
    /// - Returns: the renewed lease, or nil when `holderID` no longer holds it (it ran out
    ///   and someone else took it): the holder must stop.
    public func renew(_ name: String, holderID: String, duration: TimeInterval) throws -> Lease? {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard try LeaseRepository.renew(name: name, holderID: holderID, now: now,
                                                expiresAt: now.addingTimeInterval(max(duration, 1)), in: db) else { return nil }
                return try LeaseRepository.find(name: name, in: db)
            }
        }
    }

    /// Gives the lease back. Releasing a lease one no longer holds changes nothing.
    /// - Returns: true when the lease was held and is now free.
    @discardableResult
    public func release(_ name: String, holderID: String) throws -> Bool {
        try domainCall { try pool.write { try LeaseRepository.delete(name: name, holderID: holderID, in: $0) } }
    }

    /// The lease row, held or run out; nil when nobody has taken it (or it was released).
    public func current(_ name: String) throws -> Lease? {
        try domainCall { try pool.read { try LeaseRepository.find(name: name, in: $0) } }
    }
}
