import BelayDomain

/// How a sign-in ended, when it was not refused.
public enum SignInOutcome: Sendable {
    /// The session is open: its tokens (and whether the account was made by this sign-in).
    case signedIn(SessionGrant)
    /// The account has a second factor: the sign-in is held until
    /// `SignIn.completeSecondFactor(challenge:code:then:)` is given this challenge and a code.
    case secondFactorRequired(HeldSignInChallenge)
}
