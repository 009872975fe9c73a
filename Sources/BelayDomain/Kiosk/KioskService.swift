import BelayCore
import BelayStorage
import Foundation

/// Front-desk kiosk links: an unguessable link a host puts on the gym's tablet, showing the
/// meetup's rotating check-in code (as a QR code and its six digits) and how many have
/// checked in, without anyone signing in on the tablet.
///
/// A link is 256 random bits; only its SHA-256 is stored. It works until the meetup's
/// check-in window closes (read from the meetup, so moving the meetup moves it too), until
/// the meetup is cancelled, or until a host revokes the meetup's links. Making and revoking
/// links is for those who manage the meetup (`HostRights`); reading one needs only the link.
public final class KioskService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let policy: CheckInPolicy
    private let codes: CheckInCodeGenerator

    public init(pool: any DatabaseStore, clock: any TimeSource, checkInPolicy: CheckInPolicy) {
        self.pool = pool
        self.clock = clock
        self.policy = checkInPolicy
        self.codes = CheckInCodeGenerator(stepSeconds: checkInPolicy.codeStepSeconds)
    }

    /// Makes a new link to the meetup's kiosk screen; links made before keep working.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (only the meetup's host,
    ///   co-hosts and admins), `meetup_cancelled`, `meetup_completed`, `window_closed`.
    public func createLink(meetupID: Int64, by actor: Actor) throws -> KioskLink {
        let now = clock.now()
        let token = Crypto.base64URL(Crypto.randomBytes(32))
        return try domainCall {
            try pool.write { db in
                let meetup = try requireManaged(meetupID, by: actor, in: db)
                switch meetup.status {
                case .scheduled: break
                case .cancelled: throw DomainError(.meetupCancelled, "Meetup \(meetupID) is cancelled; there is nothing to check in to")
                case .completed: throw DomainError(.meetupCompleted, "Meetup \(meetupID) is completed; its check-in is over")
                }
                let window = policy.window(start: meetup.startsAt, end: meetup.endsAt)
                guard now < window.closesAt else {
                    throw DomainError(.windowClosed, "Check-in closed at \(RFC3339.string(from: window.closesAt, fraction: .none)); a kiosk would show nothing")
                }
                try KioskRepository.insert(meetupID: meetupID, tokenHash: Self.hash(token), createdBy: actor.userID, now: now, in: db)
                return KioskLink(token: token, meetupID: meetupID, validUntil: window.closesAt)
            }
        }
    }

    /// Revokes every link to the meetup's kiosk: their screens say so at their next refresh.
    /// Revoking when there is none is harmless.
    /// - Returns: how many links were revoked now.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`.
    @discardableResult
    public func revokeLinks(meetupID: Int64, by actor: Actor) throws -> Int {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                _ = try requireManaged(meetupID, by: actor, in: db)
                return try KioskRepository.revokeAll(meetupID: meetupID, now: now, in: db)
            }
        }
    }

    /// What the link with `token` shows now; nil for a token no link has.
    /// - Throws: `DomainError.storageFailure`.
    public func screen(token: String) throws -> KioskScreen? {
        // A token is 43 characters; anything much longer is not one (and is not hashed).
        guard (1...128).contains(token.utf8.count) else { return nil }
        let now = clock.now()
        return try domainCall {
            try pool.read { db -> KioskScreen? in
                guard let link = try KioskRepository.find(tokenHash: Self.hash(token), in: db) else { return nil }
                if link.revoked { return .gone(.revoked) }
                guard let meetup = try MeetupRepository.find(id: link.meetupID, in: db),
                      let essentials = try MeetupRepository.essentials(id: link.meetupID, in: db) else { return nil }
                let window = policy.window(start: meetup.startsAt, end: meetup.endsAt)
                switch meetup.status {
                case .cancelled: return .gone(.cancelled)
                case .completed: return .gone(.closed)
                case .scheduled: break
                }
                if window.refusal(at: now) == .windowClosed { return .gone(.closed) }
                let code = now < window.opensAt ? nil : codes.current(secret: essentials.secret, at: now, timeZone: essentials.timeZone)
                return .live(KioskView(meetup: meetup, window: window, code: code, now: now))
            }
        }
    }

    private func requireManaged(_ meetupID: Int64, by actor: Actor, in db: Database) throws -> MeetupRepository.Essentials {
        guard let meetup = try MeetupRepository.essentials(id: meetupID, in: db) else { throw MeetupService.notFound(meetupID) }
        guard try HostRights.manages(actor, meetupID: meetupID, hostID: meetup.hostID, in: db) else {
            throw DomainError(.notPermitted, "Only the meetup's host or co-hosts, or an admin, make and revoke its kiosk links")
        }
        return meetup
    }

    static func hash(_ token: String) -> [UInt8] { Crypto.sha256(Array(token.utf8)) }
}
