import Foundation

/// Whether the console asks admins for a second factor (`console.admin_second_factor`).
public enum AdminSecondFactorRule: String, Sendable, CaseIterable {
    /// Admins (and anyone else) may enrol; those who did are asked for a code at each sign-in.
    case optional
    /// An admin without a second factor is sent to enrol before any other console page, and the
    /// app's sign-in refuses them (`second_factor_enrolment_required`) until they have.
    case required
}

/// A member's second factor as the console shows it.
public struct SecondFactorState: Sendable, Equatable {
    /// A confirmed authenticator: sign-ins (console and app) ask for its code.
    public let enrolled: Bool
    /// A secret shown but not yet confirmed with a code.
    public let pending: Bool
    /// Recovery codes not yet spent.
    public let recoveryCodesLeft: Int
    /// When the authenticator was confirmed.
    public let enrolledAt: Date?

    public init(enrolled: Bool, pending: Bool, recoveryCodesLeft: Int, enrolledAt: Date?) {
        self.enrolled = enrolled
        self.pending = pending
        self.recoveryCodesLeft = recoveryCodesLeft
        self.enrolledAt = enrolledAt
    }
}

/// A held sign-in that the second factor let through.
public struct SecondFactorPass: Sendable {
    /// The identity the first factor proved, ready for `AccountService.signIn`.
    public let identity: ProvenIdentity
    /// The device that asked to sign in, for the session's name.
    public let device: DeviceDescription
    /// Whether a recovery code (now spent) was given instead of the authenticator's code.
    public let usedRecoveryCode: Bool
    /// Recovery codes left after this one.
    public let recoveryCodesLeft: Int
}
