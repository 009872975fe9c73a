import Foundation

/// What happens to a freed place: with `claimMinutes` 0 the first waitlisted member is
/// promoted at once; otherwise they get an offer to claim it within that many minutes, and
/// an unclaimed offer passes to the next. From `cutoffMinutes` before the start no offers
/// are made (there would be no time to claim them): freed places are given at once again.
/// Both come from `config.json`'s `waitlist` section.
public struct WaitlistPolicy: Sendable, Equatable {
    public var claimMinutes: Int
    public var cutoffMinutes: Int

    public init(claimMinutes: Int, cutoffMinutes: Int) {
        self.claimMinutes = claimMinutes
        self.cutoffMinutes = cutoffMinutes
    }

    public var makesOffers: Bool { claimMinutes > 0 }

    /// - Throws: `DomainError` (`invalid_input`) for a negative number of minutes.
    public func validate() throws {
        guard claimMinutes >= 0 else { throw DomainError.invalid("waitlist.claim_minutes", "The claim window is 0 (instant promotion) or more minutes") }
        guard cutoffMinutes >= 0 else { throw DomainError.invalid("waitlist.cutoff_minutes", "The cutoff is 0 or more minutes before the start") }
    }
}
