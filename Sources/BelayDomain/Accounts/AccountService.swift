import BelayCore
import BelayStorage
import Foundation
import Synchronization

/// Members' own accounts: signing in (Apple, Google, an emailed code), sessions with rotating
/// refresh tokens, the profile, and leaving.
///
/// The proofs themselves (an ID token's signature, the mail going out) are checked and sent
/// by the layers above; this service decides what a proven identity may do and keeps every
/// change in one transaction.
public final class AccountService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    public let policy: AccountPolicy
    private let events: ChangeFeed
    /// The club's blocked words, checked in display names and handles.
    private let screen: (any ContentScreen)?
    /// Refresh tokens start with this, so that they are recognised in logs and never taken for access tokens.
    static let refreshTokenPrefix = "belay_r_"
    /// When this process last forgot expired ID tokens; at most once a minute, since it scans.
    private let lastUsedTokenPrune = Mutex<Date?>(nil)

    init(pool: any DatabaseStore, clock: any TimeSource, policy: AccountPolicy, events: ChangeFeed, screen: (any ContentScreen)? = nil) {
        self.screen = screen
        self.pool = pool
        self.clock = clock
        self.policy = policy
        self.events = events
    }

    // MARK: Signing in

    /// Signs in with an identity the caller has proven, creating the account on a first
    /// sign-in when sign-up allows it, and starts a session.
    ///
    /// Identities are linked by the provider's subject; a first sign-in whose verified email
    /// matches an account's email joins that account. Two first sign-ins of one identity at
    /// the same instant make one account.
    /// - Throws: `DomainError` `token_already_used`, `sign_up_closed`, `invite_required`,
    ///   `invalid_invite`, `invalid_input` (device name or name), or `storage_failure`.
    public func signIn(_ identity: ProvenIdentity, device: DeviceDescription, inviteCode: String? = nil,
                       locale: MemberLocale? = nil) throws -> SessionGrant {
        try CompletionWait.result { completion in
            signIn(identity, device: device, inviteCode: inviteCode, locale: locale, then: completion)
        }
    }

    /// Signs in like `signIn(_:device:inviteCode:locale:)` without holding the calling thread
    /// while the write waits for its commit: `completion` gets the grant, or the same errors,
    /// on a thread of the store's (keep it short: hand the result on).
    public func signIn(_ identity: ProvenIdentity, device: DeviceDescription, inviteCode: String? = nil, locale: MemberLocale? = nil,
                       then completion: @escaping @Sendable (Result<SessionGrant, any Error>) -> Void) {
        let checked: DeviceDescription
        do { checked = try Self.checked(device) } catch { return completion(.failure(error)) }
        let now = clock.now()
        pool.write({ [self] db in
            do {
                return try signInWrite(identity, device: checked, inviteCode: inviteCode, locale: locale, now: now, in: db)
            } catch let error as DatabaseError where error.isUniqueConstraintViolation {
                // Another node made the same account at this instant: the writer runs the write
                // again, as after any conflict, and the next run finds the account.
                throw error.asConflict()
            }
        }, then: { result in
            completion(result.mapError(domainError))
        })
    }

    private func signInWrite(_ identity: ProvenIdentity, device: DeviceDescription, inviteCode: String?, locale: MemberLocale?,
                             now: Date, in db: Database) throws -> SessionGrant {
        if let digest = identity.tokenDigest {
            let expiry = max(identity.tokenExpiresAt ?? now, now).addingTimeInterval(600)
            let pruning = lastUsedTokenPrune.withLock { last -> Bool in
                guard last.map({ now.timeIntervalSince($0) >= 60 || now < $0 }) ?? true else { return false }
                last = now
                return true
            }
            guard try AccountRepository.recordUsedIdentityToken(digest: digest, expiresAt: expiry, now: now, pruning: pruning, in: db) else {
                throw DomainError(.tokenAlreadyUsed, "This ID token was already used to sign in; ask the provider for a new one and sign in again")
            }
        }
        var created = false
        let userID: Int64
        if let owner = try AccountRepository.identityOwner(method: identity.method, subject: identity.subject, in: db) {
            try AccountRepository.touchIdentity(id: owner.id, identity, now: now, in: db)
            userID = owner.userID
        } else if identity.emailVerified, let email = identity.email, let existing = try AccountRepository.userID(email: email, in: db) {
            try AccountRepository.insertIdentity(identity, userID: existing, now: now, in: db)
            userID = existing
        } else {
            switch policy.signUp {
            case .open: break
            case .closed:
                throw DomainError(.signUpClosed, "This club does not take sign-ups; ask an admin to create your account first")
            case .invite:
                guard let code = inviteCode?.trimmingCharacters(in: .whitespaces), !code.isEmpty else {
                    throw DomainError(.inviteRequired, "This club takes new members by invite; sign in again with the invite code a host gave you")
                }
                guard try InviteRepository.consume(code: code, now: now, in: db) else {
                    throw DomainError(.invalidInvite, "This invite code is unknown, used up, expired or revoked; ask a host for a new one")
                }
            }
            userID = try createAccount(for: identity, now: now, in: db).id
            try AccountRepository.insertIdentity(identity, userID: userID, now: now, in: db)
            created = true
        }
        if let until = try SafetyRepository.suspendedUntil(userID: userID, now: now, in: db) {
            let end = until == .distantFuture ? "for good" : "until \(RFC3339.string(from: until, fraction: .none))"
            throw DomainError(.accountSuspended, "This account is suspended \(end); write to the club to appeal")
        }
        if identity.method == .email || created || locale != nil {
            try AccountRepository.setAccountDetails(userID: userID, locale: created ? locale : nil,
                                                    emailVerified: identity.method == .email && identity.emailVerified, in: db)
        }
        let session = try AccountRepository.insertSession(userID: userID, device: device, method: identity.method, now: now,
                                                          expiresAt: now.addingTimeInterval(policy.refreshTokenIdleLifetime), in: db)
        return try grant(session: session, accountCreated: created, now: now, in: db)
    }

    private func createAccount(for identity: ProvenIdentity, now: Date, in db: Database) throws -> User {
        let name = identity.name?.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping ?? ""
        let emailName = identity.email.map { String($0.prefix(while: { $0 != "@" })) } ?? ""
        let displayName = String((name.isEmpty ? (emailName.isEmpty ? "Climber" : emailName) : name).prefix(100))
        try TextRule.signInName.check(displayName)
        let base = HandleRule.base(from: name.isEmpty ? emailName : name)
        // The name itself, then a few small numbers (alex2), then random ones: a club with
        // thousands of nameless sign-ups ("climber") finds a free handle in a few lookups.
        var candidates = [base] + (2...5).map { base + String($0) } + (0..<20).map { _ in base + String(Int.random(in: 100...9_999)) }
        candidates += (0..<20).map { _ in base + String(Int.random(in: 10_000...99_999_999)) }
        guard let handle = try candidates.first(where: { try !AccountRepository.handleExists($0, in: db) }) else {
            throw DomainError(.handleTaken, "No free handle could be made from \(base); sign in again")
        }
        // A verified email that no account has is kept; an unverified one never links anything.
        let email = identity.emailVerified ? identity.email : nil
        return try UserRepository.insert(NewUser(handle: handle, displayName: displayName, email: email, role: .member), at: now, in: db)
    }

    /// A new access token and refresh token for `session`.
    private func grant(session: MemberSession, accountCreated: Bool, now: Date, in db: Database) throws -> SessionGrant {
        let access = UserService.tokenPrefix + Crypto.base64URL(Crypto.randomBytes(32))
        let refresh = Self.refreshTokenPrefix + Crypto.base64URL(Crypto.randomBytes(32))
        let accessExpiry = now.addingTimeInterval(policy.accessTokenLifetime)
        _ = try UserRepository.insertToken(userID: session.userID, hash: Crypto.sha256(Array(access.utf8)), prefix: String(access.prefix(12)),
                                           label: "session \(session.id)", at: now, sessionID: session.id, expiresAt: accessExpiry, in: db)
        try AccountRepository.insertRefreshToken(hash: Crypto.sha256(Array(refresh.utf8)), sessionID: session.id, now: now, in: db)
        guard let user = try UserRepository.find(id: session.userID, in: db) else {
            throw DomainError(.userNotFound, "No user has id \(session.userID)")
        }
        return SessionGrant(accessToken: access, accessTokenExpiresAt: Date(millisecondsSince1970: accessExpiry.millisecondsSince1970),
                            refreshToken: refresh, session: session, user: user, accountCreated: accountCreated)
    }

    static func checked(_ device: DeviceDescription) throws -> DeviceDescription {
        var device = device
        device.name = device.name.trimmingCharacters(in: .whitespacesAndNewlines)
        device.platform = device.platform.trimmingCharacters(in: .whitespaces).lowercased()
        try TextRule.deviceName.check(device.name)
        guard ["", "ios", "android", "web"].contains(device.platform) else {
            throw DomainError.invalid("platform", "The platform is ios, android or web (got \(device.platform.debugDescription))")
        }
        return device
    }

    // MARK: Refreshing and ending sessions

    private enum RefreshOutcome {
        case granted(SessionGrant)
        case unknown
        case reused
    }

    /// Exchanges a refresh token for a new access token and a new refresh token. Each refresh
    /// token works once: presenting one already used ends its whole session.
    /// - Throws: `DomainError` `invalid_refresh_token`, `refresh_token_reused`, or `storage_failure`.
    public func refresh(token: String) throws -> SessionGrant {
        let hash = try Self.refreshTokenHash(token)
        let now = clock.now()
        return try Self.grant(of: try domainCall { try pool.write { db in try refreshWrite(hash: hash, now: now, in: db) } })
    }

    /// Refreshes like `refresh(token:)` without holding the calling thread while the write
    /// waits for its commit: `completion` gets the grant, or the same errors, on a thread of the store's.
    public func refresh(token: String, then completion: @escaping @Sendable (Result<SessionGrant, any Error>) -> Void) {
        let hash: [UInt8]
        do { hash = try Self.refreshTokenHash(token) } catch { return completion(.failure(error)) }
        let now = clock.now()
        pool.write({ [self] db in try refreshWrite(hash: hash, now: now, in: db) }, then: { result in
            completion(Result { try Self.grant(of: try result.mapError(domainError).get()) })
        })
    }

    static func refreshTokenHash(_ token: String) throws -> [UInt8] {
        guard token.hasPrefix(refreshTokenPrefix), token.utf8.count == refreshTokenPrefix.utf8.count + 43 else {
            throw DomainError(.invalidRefreshToken, "This is not a Belay refresh token; sign in again")
        }
        return Crypto.sha256(Array(token.utf8))
    }

    /// The common case first, in as few statements as it takes (a refresh is one of the
    /// busiest writes): spend the token, extend its live session, grant. Only a token that
    /// could not be spent is looked at again, to tell an unknown one from one used before.
    private func refreshWrite(hash: [UInt8], now: Date, in db: Database) throws -> RefreshOutcome {
        guard let sessionID = try AccountRepository.spendRefreshToken(hash: hash, now: now, in: db) else {
            guard let issuedTo = try AccountRepository.refreshTokenSession(hash: hash, in: db),
                  try AccountRepository.liveSession(id: issuedTo, now: now, in: db) != nil else { return .unknown }
            // Ending the session is committed: the write returns, the caller is refused after.
            try AccountRepository.endSession(id: issuedTo, now: now, in: db)
            return .reused
        }
        guard let session = try AccountRepository.touchLiveSession(
            id: sessionID, now: now, expiresAt: now.addingTimeInterval(policy.refreshTokenIdleLifetime), in: db) else { return .unknown }
        try AccountRepository.pruneExpiredAccessTokens(sessionID: sessionID, before: now.addingTimeInterval(-86_400), in: db)
        return .granted(try grant(session: session, accountCreated: false, now: now, in: db))
    }

    /// The grant of a refresh, or its refusal.
    private static func grant(of outcome: RefreshOutcome) throws -> SessionGrant {
        switch outcome {
        case let .granted(grant): return grant
        case .unknown:
            throw DomainError(.invalidRefreshToken, "This refresh token is unknown or its session has ended; sign in again")
        case .reused:
            throw DomainError(.refreshTokenReused, "This refresh token was already used, so its session was ended in case it was stolen; sign in again")
        }
    }

    /// The member's live sessions, oldest first.
    /// - Throws: `DomainError.storageFailure`.
    public func sessions(userID: Int64) throws -> [MemberSession] {
        let now = clock.now()
        return try domainCall { try pool.read { try AccountRepository.liveSessions(userID: userID, now: now, in: $0) } }
    }

    /// Ends one of the member's sessions (signing out that device).
    /// - Throws: `DomainError` `session_not_found` when the member has no live session `id`.
    public func endSession(id: Int64, userID: Int64) throws {
        let now = clock.now()
        try domainCall {
            try pool.write { db in
                guard let session = try AccountRepository.liveSession(id: id, now: now, in: db), session.userID == userID else {
                    throw DomainError(.sessionNotFound, "You have no signed-in session \(id); list them with GET /v1/me/sessions")
                }
                try AccountRepository.endSession(id: id, now: now, in: db)
            }
        }
    }

    // MARK: Email

    /// Starts an email sign-in: a 6-digit code and a link token, stored hashed, that work
    /// once within `policy.emailCodeLifetime`. A new request voids the address's earlier codes.
    /// - Throws: `DomainError` `invalid_input` (field `email`) for something that is not an address.
    public func startEmailSignIn(email rawEmail: String, locale requested: MemberLocale?) throws -> EmailSignInChallenge {
        let email = try Self.normalisedEmail(rawEmail)
        let code = Self.sixDigits()
        let link = Crypto.base64URL(Crypto.randomBytes(32))
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(policy.emailCodeLifetime)
        let accountLocale = try domainCall {
            try pool.write { db -> MemberLocale? in
                try AccountRepository.insertChallenge(email: email, codeHash: Self.codeHash(email: email, code: code),
                                                      linkHash: Crypto.sha256(Array(link.utf8)), now: now, expiresAt: expiresAt, in: db)
                guard let userID = try AccountRepository.userID(email: email, in: db) else { return nil }
                return try AccountRepository.profile(userID: userID, in: db)?.locale
            }
        }
        return EmailSignInChallenge(email: email, code: code, linkToken: link, expiresAt: expiresAt,
                                    locale: accountLocale ?? requested ?? policy.defaultLocale)
    }

    private enum CodeOutcome {
        case proven(String)
        case wrong
    }

    /// Checks an emailed code; the address is proven when it matches. The code then stops
    /// working; after `policy.maxWrongEmailCodes` wrong codes it is void.
    /// - Throws: `DomainError` `invalid_email_code` (wrong, expired, used or void), `invalid_input`.
    public func verifyEmailCode(email rawEmail: String, code: String) throws -> ProvenIdentity {
        let email = try Self.normalisedEmail(rawEmail)
        let now = clock.now()
        guard let digits = Self.typedCode(code) else {
            throw DomainError.invalid("code", "`code` is the six digits from the mail, such as 842 337 (spaces and dashes may stay); nothing was counted against the tries")
        }
        let presented = Self.codeHash(email: email, code: digits)
        let outcome = try domainCall {
            try pool.write { db -> CodeOutcome in
                guard let challenge = try AccountRepository.openChallenge(email: email, in: db), challenge.expiresAt > now else { return .wrong }
                guard Self.constantTimeEqual(challenge.codeHash, presented) else {
                    try AccountRepository.countWrongCode(challengeID: challenge.id, closing: challenge.wrongAttempts + 1 >= policy.maxWrongEmailCodes,
                                                         now: now, in: db)
                    return .wrong
                }
                return try AccountRepository.closeChallenge(id: challenge.id, now: now, in: db) ? .proven(email) : .wrong
            }
        }
        return try Self.identity(outcome)
    }

    /// Checks the token of an emailed link; the address is proven when it is open.
    /// - Throws: `DomainError` `invalid_email_code`.
    public func verifyEmailLink(token: String) throws -> ProvenIdentity {
        let hash = Crypto.sha256(Array(token.utf8))
        let now = clock.now()
        let outcome = try domainCall {
            try pool.write { db -> CodeOutcome in
                guard let challenge = try AccountRepository.openChallenge(linkHash: hash, in: db), challenge.expiresAt > now,
                      challenge.wrongAttempts < policy.maxWrongEmailCodes,
                      try AccountRepository.closeChallenge(id: challenge.id, now: now, in: db) else { return .wrong }
                return .proven(challenge.email)
            }
        }
        return try Self.identity(outcome)
    }

    private static func identity(_ outcome: CodeOutcome) throws -> ProvenIdentity {
        guard case let .proven(email) = outcome else {
            throw DomainError(.invalidEmailCode, "This code is wrong, expired or already used; ask for a new one with POST /v1/auth/email")
        }
        return ProvenIdentity(method: .email, subject: email, email: email, emailVerified: true)
    }

    /// An email address in the form it is stored and compared: trimmed, lower-cased.
    /// - Throws: `DomainError` `invalid_input` (field `email`).
    static func normalisedEmail(_ text: String) throws -> String {
        let email = text.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
              !parts[1].hasSuffix("."), !email.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "<" || $0 == ">" || $0 == "," }),
              email.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw DomainError.invalid("email", "\(text.prefix(80).debugDescription) is not an email address like name@example.com")
        }
        return email
    }

    static func sixDigits() -> String {
        let value = Crypto.uint64(Crypto.randomBytes(8), at: 0) % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    /// The six digits of an emailed code as a member types it: the spaces and dashes of the
    /// mail's grouping (`842 337`, `842-337`) and around it are left out, and full-width
    /// digits read as digits; nil when what is left is not six digits.
    static func typedCode(_ text: String) -> String? {
        let separators: Set<Character> = ["-", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}", "\u{30FC}", "\u{FF0D}"]
        var digits = ""
        for character in text where !character.isWhitespace && !separators.contains(character) {
            guard character.isNumber, let digit = character.wholeNumberValue, (0...9).contains(digit), character.unicodeScalars.count == 1 else { return nil }
            digits.append(String(digit))
        }
        return digits.count == 6 ? digits : nil
    }

    static func codeHash(email: String, code: String) -> [UInt8] {
        Crypto.sha256(Array("belay-email-code:\(email):\(code)".utf8))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    // MARK: Profile

    /// The member's own profile.
    /// - Throws: `DomainError.userNotFound` (also for a deleted account).
    public func profile(userID: Int64) throws -> MemberProfile {
        guard let profile = try domainCall({ try pool.read { try AccountRepository.profile(userID: userID, in: $0) } }) else {
            throw DomainError(.userNotFound, "No account has id \(userID)")
        }
        return profile
    }

    /// Changes the member's display name, handle, language or share-page preference.
    /// - Throws: `DomainError` `invalid_input` or `content_refused` naming the field, `handle_taken`, `user_not_found`.
    public func updateProfile(userID: Int64, _ change: ProfileChange) throws -> MemberProfile {
        var change = change
        if let name = change.displayName {
            change.displayName = name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
            try TextRule.displayName.check(change.displayName ?? "")
        }
        if let handle = change.handle {
            change.handle = HandleRule.normalised(handle)
        }
        try screen?.check(change.displayName, field: "display_name", noun: "The display name")
        try screen?.check(change.handle, field: "handle", noun: "The handle")
        let update = change
        return try domainCall {
            do {
                return try pool.write { db in
                    guard let current = try AccountRepository.profile(userID: userID, in: db) else {
                        throw DomainError(.userNotFound, "No account has id \(userID)")
                    }
                    if let handle = update.handle { try HandleRule.checkChosen(handle, current: current.user.handle) }
                    try AccountRepository.updateProfile(userID: userID, update, in: db)
                    guard let profile = try AccountRepository.profile(userID: userID, in: db) else {
                        throw DomainError(.userNotFound, "No account has id \(userID)")
                    }
                    return profile
                }
            } catch let error as DatabaseError where error.isUniqueConstraintViolation {
                throw DomainError(.handleTaken, "The handle \(update.handle ?? "") is taken; choose another", field: "handle")
            }
        }
    }

    // MARK: Leaving

    /// Deletes the member's account at their own request, from a session whose sign-in is
    /// at most `policy.recentSignInWindow` old. See `deleteAccount(userID:)`.
    /// - Throws: `DomainError` `recent_sign_in_required`, `user_not_found`, `storage_failure`.
    public func deleteOwnAccount(userID: Int64, sessionID: Int64?) throws -> AccountDeletion {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard let sessionID, let session = try AccountRepository.liveSession(id: sessionID, now: now, in: db),
                      session.userID == userID, session.authenticatedAt >= now.addingTimeInterval(-policy.recentSignInWindow) else {
                    throw DomainError(.recentSignInRequired, "Deleting your account needs a sign-in from the last \(Int(policy.recentSignInWindow / 60)) minutes; sign in again (or enter a new email code) and retry")
                }
                return try erase(userID: userID, now: now, in: db)
            }
        }
    }

    /// Deletes an account (an admin's `belay users delete`): what identifies the person goes
    /// (name, email, handle — a tombstone takes its place —, identities, sessions and tokens,
    /// the calendar feed, their logbook's ticks and their gym manager roles), their rewards are
    /// revoked (badges through the status list, share pages answer 410), attendance stays
    /// anonymous so counts stay right, and a
    /// `user.deleted` webhook goes out, all in one transaction.
    /// - Throws: `DomainError` `user_not_found` (also when already deleted), `storage_failure`.
    public func deleteAccount(userID: Int64) throws -> AccountDeletion {
        let now = clock.now()
        return try domainCall { try pool.write { db in try erase(userID: userID, now: now, in: db) } }
    }

    /// Removes the copies an erasure left in the database's files, where the engine can do so
    /// at once (`DatabaseStore.discardDeletedData()`: on SQLite the write-ahead log is
    /// checkpointed and truncated). Call it after `deleteAccount(userID:)` or
    /// `deleteOwnAccount(userID:sessionID:)`, away from a server thread: it waits for a checkpoint.
    /// - Throws: `DomainError.storageFailure` when the checkpoint could not finish.
    public func discardErasedData() throws {
        try domainCall { try pool.discardDeletedData() }
    }

    private func erase(userID: Int64, now: Date, in db: Database) throws -> AccountDeletion {
        guard let profile = try AccountRepository.profile(userID: userID, in: db) else {
            throw DomainError(.userNotFound, "No account has id \(userID) (or it was already deleted)")
        }
        let appleTokens = try AccountRepository.appleRefreshTokens(userID: userID, in: db)
        let rewards: [Int64] = try db.query("SELECT id FROM rewards WHERE member_id = ? AND revoked_at IS NULL ORDER BY id", [userID]) {
            try $0.get("id")
        }
        try db.execute("UPDATE rewards SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL", [now, userID])
        if let email = profile.user.email { try AccountRepository.deleteChallenges(email: email.lowercased(), in: db) }
        for identity in try AccountRepository.identities(userID: userID, in: db) where identity.provider == .email {
            try AccountRepository.deleteChallenges(email: identity.subject, in: db)
        }
        try AccountRepository.erase(userID: userID, now: now, in: db)
        try TickRepository.erase(userID: userID, in: db)
        try FollowRepository.erase(userID: userID, in: db)
        // Their blocks go; their reports stay for the moderators without who filed them.
        try SafetyRepository.deleteAll(userID: userID, in: db)
        try ReportRepository.forgetReporter(userID: userID, in: db)
        _ = try CalendarRepository.bumpGeneration(userID: userID, now: now, in: db)
        try events.changed(.accountDeleted(userID: userID), now: now, in: db)
        return AccountDeletion(userID: userID, appleRefreshTokens: appleTokens, revokedRewardIDs: rewards)
    }

    // MARK: Taking their data

    /// The member's identities (no secrets), for their export.
    public func identities(userID: Int64) throws -> [LinkedIdentity] {
        try domainCall { try pool.read { try AccountRepository.identities(userID: userID, in: $0) } }
    }
}
