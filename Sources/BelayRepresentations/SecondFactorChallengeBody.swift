import BelayCore
import BelayDomain
import Foundation

/// The answer (202) to a sign-in whose first factor was right for an account with a second
/// factor: no tokens yet, only the challenge to give back to `POST /v1/auth/second-factor`
/// with the authenticator's code or a recovery code.
public struct SecondFactorChallengeBody: JSONRepresentable {
    public let challenge: HeldSignInChallenge
    public let now: Date

    public init(challenge: HeldSignInChallenge, now: Date) {
        self.challenge = challenge
        self.now = now
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("second_factor_required", true)
            json.member("challenge", challenge.token)
            json.member("expires_at", utc: challenge.expiresAt)
            json.member("expires_in", Int64(max(0, challenge.expiresAt.timeIntervalSince(now)).rounded()))
            json.key("methods")
            json.array(["totp", "recovery_code"]) { json, method in json.string(method) }
        }
    }
}
