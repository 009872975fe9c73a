import BelayDomain
import BelayIdentity
import Dispatch

/// Deleting a member's account, as the member asks it (`DELETE /v1/me`) or an admin does
/// (`belay users delete`): the erasure in one transaction, then what lies outside it, which
/// the App Store asks of an app with Sign in with Apple and the erasure itself needs:
/// revoking the member's Apple tokens at Apple, and discarding the copies the database's files
/// still hold (a checkpoint). Both wait on something slow (Apple, the readers a checkpoint
/// waits for), so a server runs them on a background thread and a command waits for them.
public struct AccountErasure: Sendable {
    /// What happened after the erasure: the Apple tokens revoked, and what could not be done,
    /// one line each (never a token). The account is gone either way.
    public struct Aftermath: Sendable, Equatable {
        /// The member's Apple tokens Apple confirmed revoked.
        public var appleTokensRevoked = 0
        /// What could not be done, each saying why.
        public var problems: [String] = []
    }

    let accounts: AccountService
    let appleAccounts: AppleAccountClient?
    /// Why `appleAccounts` is nil, said when a deleted member had Apple tokens to revoke.
    let appleUnavailable: String

    /// - Parameters:
    ///   - appleAccounts: revokes Apple tokens with the club's key; nil where there is no key.
    ///   - appleUnavailable: why there is no client (a missing setting, a key that would not
    ///     load), for the line that says the tokens were not revoked.
    public init(accounts: AccountService, appleAccounts: AppleAccountClient?,
                appleUnavailable: String = "auth.apple.private_key_file is not set") {
        self.accounts = accounts
        self.appleAccounts = appleAccounts
        self.appleUnavailable = appleUnavailable
    }

    /// Deletes the caller's own account from a recent sign-in, and leaves the aftermath to a
    /// background thread, which hands each problem to `log`.
    /// - Throws: `DomainError` `recent_sign_in_required`, `user_not_found`, `storage_failure`.
    public func eraseOwnAccount(userID: Int64, sessionID: Int64?, log: @escaping @Sendable (String) -> Void) throws -> AccountDeletion {
        let deletion = try accounts.deleteOwnAccount(userID: userID, sessionID: sessionID)
        DispatchQueue.global(qos: .utility).async { [self] in
            for problem in aftermath(of: deletion).problems { log(problem) }
        }
        return deletion
    }

    /// Deletes an account as an admin, waiting for the aftermath.
    /// - Throws: `DomainError` `user_not_found` (also when already deleted), `storage_failure`.
    public func eraseAccount(userID: Int64) throws -> (deletion: AccountDeletion, aftermath: Aftermath) {
        let deletion = try accounts.deleteAccount(userID: userID)
        return (deletion, aftermath(of: deletion))
    }

    /// Revokes `deletion`'s Apple tokens at Apple and discards the erased copies; a failure of
    /// either is reported, not retried.
    func aftermath(of deletion: AccountDeletion) -> Aftermath {
        var aftermath = Aftermath()
        do { try accounts.discardErasedData() } catch {
            aftermath.problems.append("the data of deleted user \(deletion.userID) may stay in the database's write-ahead log until its next checkpoint: \(error)")
        }
        guard !deletion.appleRefreshTokens.isEmpty else { return aftermath }
        guard let apple = appleAccounts else {
            aftermath.problems.append("\(deletion.appleRefreshTokens.count) Apple token(s) of user \(deletion.userID) were not revoked: \(appleUnavailable)")
            return aftermath
        }
        for token in deletion.appleRefreshTokens {
            do {
                try apple.revoke(refreshToken: token)
                aftermath.appleTokensRevoked += 1
            } catch {
                aftermath.problems.append("an Apple token of user \(deletion.userID) was not revoked: \(error)")
            }
        }
        return aftermath
    }
}
