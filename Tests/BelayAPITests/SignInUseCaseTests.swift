import BelayCore
import BelayDomain
import BelayIdentity
import BelayTestSupport
import BelayUseCases
import Foundation
import Synchronization
import Testing

/// `SignIn` without HTTP: Google's ID tokens signed by PyJWT in the provider fixture, checked
/// against the JWKS it serves, and the sessions written to a migrated database. What the use
/// case decides is where the proof is checked: a token whose keys must first be fetched goes
/// to the outbound threads (and is refused busy when they are full), never the caller's.
@Suite struct SignInUseCaseTests {
    static let googleClient = "1234-web.apps.googleusercontent.com"

    let world: IdentityProviderWorld
    var provider: IdentityProviderProcess { world.provider }
    var domain: DomainServices { world.domain }

    init() throws {
        world = try IdentityProviderWorld()
    }

    func googleVerifier() -> IdentityTokenVerifier {
        IdentityTokenVerifier(settings: IdentityTokenVerifierSettings(provider: .google, jwksURL: provider.jwksURL, clientIDs: [Self.googleClient]),
                              clock: SystemTimeSource())
    }

    func signIn(google: IdentityTokenVerifier?, outbound: BoundedWorkQueue) -> SignIn {
        SignIn(accounts: domain.accounts, secondFactors: domain.secondFactors, apple: nil, google: google, appleAccounts: nil, outbound: outbound)
    }

    func googleToken(subject: String) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        return try provider.sign(claims: ["iss": "https://accounts.google.com", "aud": Self.googleClient, "sub": subject,
                                          "iat": now, "exp": now + 600, "email": "\(subject)@gmail.com", "email_verified": true,
                                          // Two tokens for one subject within a second differ, as Google's do.
                                          "jti": UUID().uuidString],
                                 kid: "rsa-1")
    }

    /// Runs a sign-in and waits for its outcome.
    func outcome(_ start: (@escaping @Sendable (Result<SignInOutcome, any Error>) -> Void) throws -> Void) throws -> SignInOutcome {
        let result = Mutex<Result<SignInOutcome, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        try start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        return try #require(result.withLock { $0 }).get()
    }

    /// A queue with no room: its one place is held by work that waits for `release`.
    private static func fullQueue(until release: DispatchSemaphore) -> BoundedWorkQueue {
        let queue = BoundedWorkQueue(name: "test-full", threads: 1, capacity: 1)
        _ = queue.submit { release.wait() }
        return queue
    }

    @Test func aTokenWhoseKeysMustBeFetchedIsCheckedOnTheOutboundThreadsNeverTheCallers() throws {
        // No room off the caller's thread: a proof that calls out is refused, not run here.
        let verifier = googleVerifier()
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let full = signIn(google: verifier, outbound: Self.fullQueue(until: release))
        let first = try googleToken(subject: "1001")
        #expect(throws: SignInRefusal.providersBusy) {
            try full.withGoogle(idToken: first, nonce: nil, details: SignInDetails()) { _ in Issue.record("a refused sign-in has no outcome") }
        }
        #expect(try provider.jwksFetches() == 0)

        // With room, the keys are fetched there and the member signed in.
        let open = signIn(google: verifier, outbound: BoundedWorkQueue(name: "test-open", threads: 4, capacity: 4))
        let created = try outcome { try open.withGoogle(idToken: first, nonce: nil, details: SignInDetails(device: DeviceDescription(name: "Pixel")), then: $0) }
        guard case let .signedIn(grant) = created else { Issue.record("expected a session, got \(created)"); return }
        #expect(grant.accountCreated)
        #expect(try provider.jwksFetches() == 1)
    }

    @Test func aTokenWhoseKeysAreKnownIsCheckedAtOnceWithoutTheOutboundThreads() throws {
        let verifier = googleVerifier()
        let open = signIn(google: verifier, outbound: BoundedWorkQueue(name: "test-open", threads: 4, capacity: 4))
        _ = try outcome { try open.withGoogle(idToken: try googleToken(subject: "2001"), nonce: nil, details: SignInDetails(), then: $0) }

        // The verifier now holds the keys: the same use case signs in with no outbound room at all,
        // and the outcome arrives before the call returns (the session waits only for its commit).
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let full = signIn(google: verifier, outbound: Self.fullQueue(until: release))
        let again = try outcome { try full.withGoogle(idToken: try googleToken(subject: "2001"), nonce: nil, details: SignInDetails(), then: $0) }
        guard case let .signedIn(grant) = again else { Issue.record("expected a session, got \(again)"); return }
        #expect(!grant.accountCreated)
        #expect(try provider.jwksFetches() == 1)
    }

    @Test func aRefusedTokenReachesTheOutcomeAsTheVerifiersRefusal() throws {
        let open = signIn(google: googleVerifier(), outbound: BoundedWorkQueue(name: "test-open", threads: 4, capacity: 4))
        let now = Int(Date().timeIntervalSince1970)
        let expired = try provider.sign(claims: ["iss": "https://accounts.google.com", "aud": Self.googleClient, "sub": "3001",
                                                 "iat": now - 7200, "exp": now - 3600], kid: "rsa-1")
        #expect {
            _ = try outcome { try open.withGoogle(idToken: expired, nonce: nil, details: SignInDetails(), then: $0) }
        } throws: { error in
            (error as? IdentityTokenError)?.code == .expired
        }
    }

    @Test func aProviderTheClubDidNotSetUpIsRefusedBeforeAnyProof() throws {
        let off = signIn(google: nil, outbound: BoundedWorkQueue(name: "test-open", threads: 4, capacity: 4))
        #expect(throws: SignInRefusal.methodDisabled(method: "Sign in with Google", setting: "auth.google.client_ids")) {
            try off.withGoogle(idToken: "x.y.z", nonce: nil, details: SignInDetails()) { _ in }
        }
    }
}
