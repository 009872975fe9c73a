import BelayCore
import BelayStorage
import Dispatch
import Foundation
import Synchronization

/// Users, roles and API tokens, and the authentication every request goes through.
///
/// Managing users is an admin's job: callers (the API, the CLI) check that the actor is an
/// admin before calling the mutating methods here.
public final class UserService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    /// Which tokens' `last_used_at` this process has recorded, and the uses not yet written.
    private let tokenUses = Mutex(TokenUses())
    /// Token-use writes queued and not yet committed.
    private let tokenUseWrites = DispatchGroup()
    /// Token uses per write: small enough that the writes of others (check-ins) queued
    /// meanwhile wait a millisecond or two, not for thousands of updates.
    static let tokenUsesPerWrite = 256
    /// How stale `last_used_at` may get before it is written again.
    static let lastUseResolution: TimeInterval = 60
    /// Uses of tokens are written together at most this often, so a burst of requests from
    /// many members costs one write a second, not one per member.
    static let lastUseFlushInterval: TimeInterval = 1
    static let tokenPrefix = "belay_"

    public init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Creates a user.
    /// - Throws: `DomainError` with `invalid_input` (naming the field), `handle_taken` or `email_taken`.
    public func createUser(_ new: NewUser) throws -> User {
        var user = new
        user.handle = new.handle.trimmingCharacters(in: .whitespaces)
        user.displayName = new.displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        user.email = new.email?.trimmingCharacters(in: .whitespaces)
        if user.email?.isEmpty == true { user.email = nil }
        try Self.validate(user)
        let now = clock.now()
        return try domainCall {
            do {
                return try pool.write { try UserRepository.insert(user, at: now, in: $0) }
            } catch let error as DatabaseError where error.isUniqueConstraintViolation {
                if error.violatedUniqueConstraint == "users.email" {
                    throw DomainError(.emailTaken, "The email \(user.email ?? "") is already used by another user; use another or update that user", field: "email")
                }
                throw DomainError(.handleTaken, "The handle \(user.handle) is taken; choose another", field: "handle")
            }
        }
    }

    static func validate(_ user: NewUser) throws {
        let handleCharacters = user.handle.unicodeScalars
        guard (1...40).contains(user.handle.count),
              let first = handleCharacters.first, CharacterSet.alphanumerics.contains(first), first.isASCII,
              handleCharacters.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0)) })
        else {
            throw DomainError.invalid("handle", "A handle is 1–40 letters, digits, '_', '.' or '-', starting with a letter or digit (got \(user.handle.debugDescription))")
        }
        guard !user.handle.lowercased().hasPrefix("deleted-") else {
            throw DomainError.invalid("handle", "Handles starting with deleted- are kept for deleted accounts; choose another")
        }
        try TextRule.displayName.check(user.displayName)
        if let email = user.email {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
                  !email.contains(where: \.isWhitespace) else {
                throw DomainError.invalid("email", "\"\(email)\" is not an email address like name@example.com")
            }
        }
    }

    /// The user with `id`.
    /// - Throws: `DomainError.userNotFound`.
    public func user(id: Int64) throws -> User {
        guard let user = try domainCall({ try pool.read { try UserRepository.find(id: id, in: $0) } }) else {
            throw DomainError(.userNotFound, "No user has id \(id); list users to find the right one")
        }
        return user
    }

    /// The user with `id`, when `actor` may see them: themselves; for a host, a member who
    /// joined one of the host's meetups; for an admin, anyone. Anyone else is answered exactly
    /// like a user that does not exist, so ids reveal nothing.
    /// - Throws: `DomainError.userNotFound`.
    public func user(id: Int64, visibleTo actor: Actor) throws -> User {
        try domainCall { try pool.read { db in try UserVisibility.require(id, visibleTo: actor, in: db) } }
    }

    /// The user with `handle` (case-insensitive).
    /// - Throws: `DomainError.userNotFound`.
    public func user(handle: String) throws -> User {
        guard let user = try domainCall({ try pool.read { try UserRepository.find(handle: handle, in: $0) } }) else {
            throw DomainError(.userNotFound, "No user has the handle \(handle); list users to find the right one")
        }
        return user
    }

    /// Users in creation order.
    /// - Throws: `DomainError` for a bad limit or cursor.
    public func listUsers(limit: Int = 50, cursor: String? = nil) throws -> Page<User> {
        let limit = try validatedLimit(limit)
        let after = try cursor.map { try Cursor.decode($0, list: "users").id } ?? 0
        let users = try domainCall { try pool.read { try UserRepository.list(after: after, limit: limit + 1, in: $0) } }
        let page = Array(users.prefix(limit))
        let next = users.count > limit ? page.last.map { Cursor(list: "users", key: 0, id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// Changes a user's role.
    /// - Throws: `DomainError.userNotFound`.
    public func setRole(_ role: Role, userID: Int64) throws -> User {
        try domainCall {
            try pool.write { db in
                guard try UserRepository.setRole(role, userID: userID, in: db), let user = try UserRepository.find(id: userID, in: db) else {
                    throw DomainError(.userNotFound, "No user has id \(userID); list users to find the right one")
                }
                return user
            }
        }
    }

    // MARK: Tokens

    /// Creates an API token for a user. The returned secret is shown once: only its
    /// SHA-256 is stored.
    /// - Parameter expiresAt: when the token stops working; nil for a token that works until revoked.
    /// - Throws: `DomainError.userNotFound`, or `invalid_input` for a label over 100 characters.
    public func issueToken(userID: Int64, label: String = "", expiresAt: Date? = nil) throws -> IssuedToken {
        try TextRule.tokenLabel.check(label)
        let secret = Self.tokenPrefix + Crypto.base64URL(Crypto.randomBytes(32))
        let hash = Crypto.sha256(Array(secret.utf8))
        let now = clock.now()
        let token = try domainCall {
            try pool.write { db -> APIToken in
                guard try UserRepository.find(id: userID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No user has id \(userID); create the user first")
                }
                return try UserRepository.insertToken(userID: userID, hash: hash, prefix: String(secret.prefix(12)),
                                                      label: label, at: now, expiresAt: expiresAt, in: db)
            }
        }
        return IssuedToken(secret: secret, token: token)
    }

    /// A user's tokens, active and revoked, oldest first.
    /// - Throws: `DomainError.userNotFound`.
    public func tokens(userID: Int64) throws -> [APIToken] {
        try domainCall {
            try pool.read { db in
                guard try UserRepository.find(id: userID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No user has id \(userID)")
                }
                return try UserRepository.tokens(userID: userID, in: db)
            }
        }
    }

    /// Revokes one token; it stops authenticating at once. Revoking twice is harmless.
    /// - Throws: `DomainError.tokenNotFound`.
    @discardableResult
    public func revokeToken(id: Int64) throws -> APIToken {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                try UserRepository.revokeToken(id: id, at: now, in: db)
                guard let token = try UserRepository.token(id: id, in: db) else {
                    throw DomainError(.tokenNotFound, "No API token has id \(id); list the user's tokens to find it")
                }
                return token
            }
        }
    }

    /// Revokes every active token of a user.
    /// - Returns: how many tokens were revoked.
    /// - Throws: `DomainError.userNotFound`.
    @discardableResult
    public func revokeAllTokens(userID: Int64) throws -> Int {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard try UserRepository.find(id: userID, in: db) != nil else {
                    throw DomainError(.userNotFound, "No user has id \(userID)")
                }
                return try UserRepository.revokeTokens(userID: userID, at: now, in: db)
            }
        }
    }

    /// The user behind a bearer token, or nil when the token is unknown, malformed or revoked.
    ///
    /// Costs one SHA-256 and one indexed read; `last_used_at` is written at most about once
    /// a minute per token (and a failure to write it does not fail the authentication).
    /// - Throws: `DomainError.storageFailure` only when the database cannot be read.
    public func authenticate(token: String) throws -> AuthenticatedUser? {
        guard token.utf8.count == Self.tokenPrefix.utf8.count + 43, token.hasPrefix(Self.tokenPrefix) else { return nil }
        let hash = Crypto.sha256(Array(token.utf8))
        let now = clock.now()
        guard let owner = try domainCall({ try pool.readSingleStatement { try UserRepository.activeTokenOwner(hash: hash, now: now, in: $0) } }) else {
            return nil
        }
        let threshold = now.addingTimeInterval(-Self.lastUseResolution)
        if owner.lastUsedAt.map({ $0 < threshold }) ?? true {
            let due = tokenUses.withLock { $0.record(tokenID: owner.user.tokenID, at: now, threshold: threshold,
                                                     flushInterval: Self.lastUseFlushInterval) }
            if let due { write(tokenUses: due, threshold: threshold) }
        }
        return owner.user
    }

    /// Writes the token uses recorded since the last write and waits until every queued one
    /// is committed (the server calls this when it stops).
    public func flushTokenUses() {
        let now = clock.now()
        let due = tokenUses.withLock { $0.takePending(at: now) }
        if !due.isEmpty { write(tokenUses: due, threshold: now.addingTimeInterval(-Self.lastUseResolution)) }
        settleTokenUseWrites()
    }

    /// Waits until the token-use writes queued so far are committed.
    func settleTokenUseWrites() {
        tokenUseWrites.wait()
    }

    /// Queues the writes and returns: the request that happened to be due does not wait for
    /// them. They go in chunks, each queued when the one before is committed, so that other
    /// writes interleave instead of waiting for one transaction of thousands of updates.
    private func write(tokenUses due: [Int64: Date], threshold: Date) {
        let uses = Array(due)
        let chunks = stride(from: 0, to: uses.count, by: Self.tokenUsesPerWrite).map {
            Array(uses[$0..<min($0 + Self.tokenUsesPerWrite, uses.count)])
        }
        tokenUseWrites.enter()
        write(chunks: chunks[...], threshold: threshold)
    }

    private func write(chunks: ArraySlice<[(key: Int64, value: Date)]>, threshold: Date) {
        guard let chunk = chunks.first else { return tokenUseWrites.leave() }
        pool.write({ db in
            try UserRepository.touchTokens(chunk.map { (id: $0.key, usedAt: $0.value) }, notUsedSince: threshold, in: db)
        }, then: { [self] _ in
            // Bookkeeping only: a failed write is dropped, and never turns a valid token away.
            write(chunks: chunks.dropFirst(), threshold: threshold)
        })
    }
}

/// The `last_used_at` bookkeeping of one process: when each token was last recorded, the
/// uses waiting to be written, and when they were last written.
private struct TokenUses {
    var recorded: [Int64: Date] = [:]
    var pending: [Int64: Date] = [:]
    var lastWrite: Date?

    /// Records a use of `tokenID`; returns the uses to write now, when the last write is at
    /// least `flushInterval` old.
    mutating func record(tokenID: Int64, at now: Date, threshold: Date, flushInterval: TimeInterval) -> [Int64: Date]? {
        if let last = recorded[tokenID], last >= threshold, last <= now { return nil }
        if recorded.count >= 100_000 {
            recorded = recorded.filter { $0.value >= threshold }
            // Still full: more tokens than that in one resolution period. Start over rather
            // than filter again on every use; at worst a few uses are written twice.
            if recorded.count >= 100_000 { recorded.removeAll(keepingCapacity: true) }
        }
        recorded[tokenID] = now
        pending[tokenID] = now
        if let lastWrite, now >= lastWrite, now.timeIntervalSince(lastWrite) < flushInterval { return nil }
        return takePending(at: now)
    }

    mutating func takePending(at now: Date) -> [Int64: Date] {
        lastWrite = now
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }
}
