import BelayCore
import BelayStorage
import Foundation

/// A second factor for sign-ins, the console's and the app's: TOTP (RFC 6238, HMAC-SHA1, 30-second steps, six
/// digits) from an authenticator app, with ten one-time recovery codes.
///
/// A member enrols by taking a new secret into their app and confirming it with a current
/// code; only then are recovery codes made (shown once, stored as SHA-256). From then on a
/// sign-in whose first factor was right is *held* (`holdSignIn`) until the
/// authenticator's code or a recovery code is given (`completeSignIn`): no session exists
/// before. A code is accepted one step either side of the server's clock, and each step's
/// code works once (a code seen over a shoulder or replayed within its window is refused).
/// The secret itself has to be stored as it is (the server computes the same codes); an
/// operator resets a member who lost their phone with `belay users reset-second-factor`.
public final class SecondFactorService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let policy: AccountPolicy
    /// How many recovery codes an enrolment makes.
    public static let recoveryCodeCount = 10
    /// Steps either side of now whose codes are accepted.
    static let window: Int64 = 1

    init(pool: any DatabaseStore, clock: any TimeSource, policy: AccountPolicy) {
        self.pool = pool
        self.clock = clock
        self.policy = policy
    }

    /// Whether the console asks admins to enrol.
    public var rule: AdminSecondFactorRule { policy.adminSecondFactor }

    /// The member's second factor.
    /// - Throws: `DomainError.storageFailure`.
    public func state(userID: Int64) throws -> SecondFactorState {
        try domainCall {
            try pool.read { db in
                let factor = try SecondFactorRepository.factor(userID: userID, in: db)
                return SecondFactorState(enrolled: factor?.confirmedAt != nil, pending: factor.map { $0.confirmedAt == nil } ?? false,
                                         recoveryCodesLeft: try SecondFactorRepository.recoveryCodesLeft(userID: userID, in: db),
                                         enrolledAt: factor?.confirmedAt)
            }
        }
    }

    // MARK: Enrolling

    /// Makes a new secret for the member to take into their authenticator app, replacing one
    /// shown before and never confirmed.
    /// - Throws: `DomainError` `invalid_input` when the member already has a confirmed second
    ///   factor (an operator resets it first), `user_not_found`.
    @discardableResult
    public func startEnrolment(userID: Int64) throws -> TOTP {
        let secret = Crypto.randomBytes(20)
        let now = clock.now()
        try domainCall {
            try pool.write { db in
                guard try AccountRepository.profile(userID: userID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No account has id \(userID)")
                }
                if try SecondFactorRepository.factor(userID: userID, in: db)?.confirmedAt != nil {
                    throw DomainError.invalid("second_factor", "You already have an authenticator; to move to another, ask an admin to reset it (belay users reset-second-factor)")
                }
                try SecondFactorRepository.insertPending(userID: userID, secret: secret, now: now, in: db)
            }
        }
        return TOTP(secret: secret)
    }

    /// The secret shown and not yet confirmed, if any.
    /// - Throws: `DomainError.storageFailure`.
    public func pendingEnrolment(userID: Int64) throws -> TOTP? {
        try domainCall {
            try pool.read { db in
                guard let factor = try SecondFactorRepository.factor(userID: userID, in: db), factor.confirmedAt == nil else { return nil }
                return TOTP(secret: factor.secret)
            }
        }
    }

    private enum Confirmation {
        case confirmed([String])
        case wrong
        case nothingPending
    }

    /// Confirms the pending secret with a current code from the app; the member is enrolled.
    /// - Returns: the recovery codes, in the only form they are ever shown.
    /// - Throws: `DomainError` `invalid_second_factor_code` (field `code`) for a wrong code,
    ///   `invalid_input` (field `second_factor`) when no secret is waiting to be confirmed.
    public func confirmEnrolment(userID: Int64, code: String) throws -> [String] {
        guard let digits = Self.typedDigits(code) else {
            throw DomainError(.invalidSecondFactorCode, "Type the six digits your authenticator app shows now", field: "code")
        }
        let now = clock.now()
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.newRecoveryCode() }
        let outcome = try domainCall {
            try pool.write { db -> Confirmation in
                guard let factor = try SecondFactorRepository.factor(userID: userID, in: db), factor.confirmedAt == nil else { return .nothingPending }
                guard let step = TOTP(secret: factor.secret).matchingStep(of: digits, at: now, window: Self.window) else { return .wrong }
                try SecondFactorRepository.confirm(userID: userID, step: step, now: now, in: db)
                try SecondFactorRepository.replaceRecoveryCodes(userID: userID, hashes: codes.map { Self.recoveryHash(userID: userID, code: $0) },
                                                                now: now, in: db)
                return .confirmed(codes)
            }
        }
        switch outcome {
        case let .confirmed(codes): return codes
        case .wrong:
            throw DomainError(.invalidSecondFactorCode, "This is not the code your authenticator app shows now; check that its clock is right and type the current six digits", field: "code")
        case .nothingPending:
            throw DomainError.invalid("second_factor", "No new authenticator is waiting to be confirmed; start again")
        }
    }

    private enum Regeneration {
        case made([String])
        case wrong
        case replayed
        case notEnrolled
    }

    /// Replaces the member's recovery codes by ten new ones (the old ones, spent or not, stop
    /// working), once the authenticator's current code proves the phone is at hand. The code
    /// is spent as a sign-in's is: each step's code works once.
    /// - Returns: the new codes, in the only form they are ever shown.
    /// - Throws: `DomainError` `invalid_second_factor_code` (field `code`) for a wrong or used
    ///   code (a recovery code is not taken here), `invalid_input` (field `second_factor`)
    ///   when the member has no confirmed authenticator.
    public func regenerateRecoveryCodes(userID: Int64, code: String) throws -> [String] {
        guard let digits = Self.typedDigits(code) else {
            throw DomainError(.invalidSecondFactorCode, "Type the six digits your authenticator app shows now", field: "code")
        }
        let now = clock.now()
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.newRecoveryCode() }
        let outcome = try domainCall {
            try pool.write { db -> Regeneration in
                guard let factor = try SecondFactorRepository.factor(userID: userID, in: db), factor.confirmedAt != nil else { return .notEnrolled }
                guard let step = TOTP(secret: factor.secret).matchingStep(of: digits, at: now, window: Self.window) else { return .wrong }
                guard try SecondFactorRepository.useStep(userID: userID, step: step, in: db) else { return .replayed }
                try SecondFactorRepository.replaceRecoveryCodes(userID: userID, hashes: codes.map { Self.recoveryHash(userID: userID, code: $0) },
                                                                now: now, in: db)
                return .made(codes)
            }
        }
        switch outcome {
        case let .made(codes): return codes
        case .wrong:
            throw DomainError(.invalidSecondFactorCode, "This is not the code your authenticator app shows now; check that its clock is right and type the current six digits", field: "code")
        case .replayed:
            throw DomainError(.invalidSecondFactorCode, "This code was already used; wait for your authenticator's next code", field: "code")
        case .notEnrolled:
            throw DomainError.invalid("second_factor", "You have no authenticator set up, so there are no recovery codes to replace; set one up first")
        }
    }

    /// Removes the member's second factor, recovery codes and held sign-ins (a lost phone);
    /// they sign in with the first factor alone until they enrol again. A reset that removed
    /// something is written to the moderation audit log (`reset_second_factor` on the member),
    /// in the same transaction, naming the admin (none for the operator's command line).
    /// - Parameters:
    ///   - actor: an admin, or `.commandLine`.
    ///   - reason: why, in the admin's words, kept in the audit log.
    /// - Returns: whether they had one.
    /// - Throws: `DomainError` `not_permitted` for anyone but an admin, `invalid_input` (field
    ///   `reason`: too long, or control characters), `user_not_found`, `storage_failure`.
    @discardableResult
    public func reset(userID: Int64, by actor: Actor, reason: String = "") throws -> Bool {
        guard actor.isAdmin else {
            throw DomainError(.notPermitted, "Only an admin resets a member's second factor")
        }
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if !reason.isEmpty { try TextRule.moderationReason.check(reason) }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard try AccountRepository.profile(userID: userID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No account has id \(userID)")
                }
                guard try SecondFactorRepository.erase(userID: userID, in: db) else { return false }
                _ = try ModerationRepository.insertAction(moderatorID: actor.userID, action: .resetSecondFactor, subjectType: .member,
                                                          subjectID: String(userID), reason: reason, reportIDs: [], until: nil, now: now, in: db)
                return true
            }
        }
    }

    // MARK: Signing in

    /// Holds a sign-in whose first factor was proven (an emailed code or link, Apple, Google)
    /// when its account has a second factor: no session exists until `completeSignIn`.
    ///
    /// The account is found as `AccountService.signIn` finds it: by the identity, else by its
    /// verified email. An ID token's digest is recorded as used here, so the token cannot be
    /// exchanged again while the sign-in waits.
    /// - Parameters:
    ///   - device: the device that asked, which names the session once the sign-in completes
    ///     (checked as `AccountService.signIn` checks it).
    ///   - enforcingAdminRule: with `console.admin_second_factor` `required`, refuse an admin who
    ///     has no authenticator (the app's sign-ins; the console instead sends them to enrol).
    /// - Returns: the held sign-in (its token to give back with the code), or nil when the
    ///   account has no second factor or does not exist yet (sign in at once).
    /// - Throws: `DomainError` `second_factor_enrolment_required`, `token_already_used`,
    ///   `invalid_input` (the device's name), `storage_failure`.
    public func holdSignIn(_ identity: ProvenIdentity, device: DeviceDescription = DeviceDescription(),
                           enforcingAdminRule: Bool = false) throws -> HeldSignInChallenge? {
        let device = try AccountService.checked(device)
        let token = Crypto.base64URL(Crypto.randomBytes(32))
        let now = clock.now()
        let expiresAt = Date(millisecondsSince1970: now.addingTimeInterval(policy.emailCodeLifetime).millisecondsSince1970)
        let rule = policy.adminSecondFactor
        // Most sign-ins have no second factor: a read finds that without a write.
        let heldUser = try domainCall {
            try pool.read { db -> Int64? in
                let owner = try AccountRepository.identityOwner(method: identity.method, subject: identity.subject, in: db)?.userID
                let byEmail = identity.emailVerified ? try identity.email.flatMap { try AccountRepository.userID(email: $0, in: db) } : nil
                guard let userID = owner ?? byEmail else { return nil }
                if try SecondFactorRepository.factor(userID: userID, in: db)?.confirmedAt != nil { return userID }
                if enforcingAdminRule, rule == .required, try UserRepository.find(id: userID, in: db)?.role == .admin {
                    throw DomainError(.secondFactorEnrolmentRequired,
                                      "This club's admins sign in with a second factor and this account has none yet; sign in to the console in a browser, set up an authenticator app under Second factor, then sign in here again")
                }
                return nil
            }
        }
        guard let userID = heldUser else { return nil }
        return try domainCall {
            try pool.write { db -> HeldSignInChallenge? in
                // Reset meanwhile: the sign-in goes on without a second factor.
                guard try SecondFactorRepository.factor(userID: userID, in: db)?.confirmedAt != nil else { return nil }
                if let digest = identity.tokenDigest {
                    let expiry = max(identity.tokenExpiresAt ?? now, now).addingTimeInterval(600)
                    guard try AccountRepository.recordUsedIdentityToken(digest: digest, expiresAt: expiry, now: now, pruning: false, in: db) else {
                        throw DomainError(.tokenAlreadyUsed, "This ID token was already used to sign in; ask the provider for a new one and sign in again")
                    }
                }
                try SecondFactorRepository.insertHeld(tokenHash: Crypto.sha256(Array(token.utf8)), userID: userID, identity: identity,
                                                      device: device, now: now, expiresAt: expiresAt, in: db)
                return HeldSignInChallenge(token: token, expiresAt: expiresAt)
            }
        }
    }

    /// Whether `token` names a held sign-in still waiting for its second factor.
    public func isHeld(token: String) throws -> Bool {
        guard (1...128).contains(token.utf8.count) else { return false }
        let now = clock.now()
        return try domainCall {
            try pool.read { db in
                guard let held = try SecondFactorRepository.held(tokenHash: Crypto.sha256(Array(token.utf8)), in: db) else { return false }
                return held.expiresAt > now && held.wrongAttempts < policy.maxWrongEmailCodes
            }
        }
    }

    private enum Completion {
        case passed(SecondFactorPass)
        case wrong
        case replayed
        case gone
    }

    /// Lets a held sign-in through with the authenticator's current code (six digits) or an
    /// unspent recovery code, which is spent. The held sign-in then ends; after
    /// `maxWrongEmailCodes` wrong codes, or once expired, it is void (sign in again).
    /// - Throws: `DomainError` `invalid_second_factor_code`: field `code` for a wrong or
    ///   replayed code, field `sign_in` when the held sign-in is unknown, expired or void.
    public func completeSignIn(token: String, code: String) throws -> SecondFactorPass {
        let tokenHash = Crypto.sha256(Array(token.utf8))
        let now = clock.now()
        let digits = Self.typedDigits(code)
        let recovery = Self.typedRecoveryCode(code)
        let outcome = try domainCall {
            try pool.write { db -> Completion in
                guard let held = try SecondFactorRepository.held(tokenHash: tokenHash, in: db), held.expiresAt > now,
                      held.wrongAttempts < policy.maxWrongEmailCodes,
                      let factor = try SecondFactorRepository.factor(userID: held.userID, in: db), factor.confirmedAt != nil else { return .gone }
                var usedRecovery = false
                if let digits, let step = TOTP(secret: factor.secret).matchingStep(of: digits, at: now, window: Self.window) {
                    guard try SecondFactorRepository.useStep(userID: held.userID, step: step, in: db) else {
                        try SecondFactorRepository.countWrong(tokenHash: tokenHash, in: db)
                        return .replayed
                    }
                } else if let recovery,
                          try SecondFactorRepository.spendRecoveryCode(userID: held.userID, hash: Self.recoveryHash(userID: held.userID, code: recovery),
                                                                       now: now, in: db) {
                    usedRecovery = true
                } else {
                    try SecondFactorRepository.countWrong(tokenHash: tokenHash, in: db)
                    return .wrong
                }
                try SecondFactorRepository.deleteHeld(tokenHash: tokenHash, in: db)
                return .passed(SecondFactorPass(identity: held.identity, device: held.device, usedRecoveryCode: usedRecovery,
                                                recoveryCodesLeft: try SecondFactorRepository.recoveryCodesLeft(userID: held.userID, in: db)))
            }
        }
        switch outcome {
        case let .passed(pass): return pass
        case .wrong:
            throw DomainError(.invalidSecondFactorCode, "This is neither your authenticator's current code nor an unused recovery code; try again", field: "code")
        case .replayed:
            throw DomainError(.invalidSecondFactorCode, "This code was already used; wait for your authenticator's next code", field: "code")
        case .gone:
            throw DomainError(.invalidSecondFactorCode, "This sign-in has expired or had too many wrong codes; sign in again from the start", field: "sign_in")
        }
    }

    // MARK: Codes

    /// Six digits as typed (spaces in the middle allowed); nil for anything else.
    static func typedDigits(_ text: String) -> String? {
        let digits = text.filter { !$0.isWhitespace }
        guard digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return digits
    }

    /// The alphabet of recovery codes: lower-case letters and digits without look-alikes.
    private static let recoveryAlphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// Ten characters in two groups of five (`k7m2q-x9tfa`): about 49 bits.
    static func newRecoveryCode() -> String {
        let characters = Crypto.randomBytes(10).map { recoveryAlphabet[Int($0) % recoveryAlphabet.count] }
        return String(characters[0..<5]) + "-" + String(characters[5..<10])
    }

    /// A recovery code as typed, lower-cased without spaces or dashes; nil when it cannot be one.
    static func typedRecoveryCode(_ text: String) -> String? {
        let code = text.lowercased().filter { !$0.isWhitespace && $0 != "-" }
        guard code.count == 10, code.allSatisfy({ recoveryAlphabet.contains($0) }) else { return nil }
        return code
    }

    static func recoveryHash(userID: Int64, code: String) -> [UInt8] {
        let normalised = typedRecoveryCode(code) ?? code
        return Crypto.sha256(Array("belay-recovery-code:\(userID):\(normalised)".utf8))
    }
}
