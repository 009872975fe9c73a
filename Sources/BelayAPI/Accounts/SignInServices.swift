import BelayCore
import BelayDomain
import BelayHTTP
import BelayIdentity
import BelayUseCases
import Foundation
import Synchronization

/// What sign-in needs from outside the database: the identity providers' token verifiers,
/// the mail that carries codes, Apple's token endpoints, and the limits per caller.
/// A provider left nil is switched off (its route answers 403 `sign_in_method_disabled`).
public struct SignInServices: Sendable {
    public var apple: IdentityTokenVerifier?
    public var google: IdentityTokenVerifier?
    /// Exchanges the app's authorization code and revokes Apple tokens when a member leaves.
    public var appleAccounts: AppleAccountClient?
    /// Sends sign-in mail off the request's thread.
    public var mail: SignInMailQueue?
    /// Limits per client address on every `/v1/auth/*` route, and per email address on mailed codes.
    public var limits: AuthRateLimits
    /// Where the server is reached: links in mail start with it.
    public var publicBaseURL: String
    /// The club's name, in mail.
    public var clubName: String
    /// Runs the sign-ins that must call a provider (keys to fetch, a code to exchange) off the
    /// HTTP threads.
    public var outbound = BoundedWorkQueue(name: "belay-sign-in-outbound", threads: 64, capacity: 64, quality: .userInitiated)
    /// Told what went wrong outside a request (a revocation at Apple that failed).
    public var log: @Sendable (String) -> Void = { _ in }

    public init(apple: IdentityTokenVerifier? = nil, google: IdentityTokenVerifier? = nil, appleAccounts: AppleAccountClient? = nil,
                mail: SignInMailQueue? = nil, limits: AuthRateLimits, publicBaseURL: String, clubName: String) {
        self.apple = apple
        self.google = google
        self.appleAccounts = appleAccounts
        self.mail = mail
        self.limits = limits
        self.publicBaseURL = publicBaseURL
        self.clubName = clubName
    }
}

/// Mail waiting to go out, sent one at a time on a background queue so that a slow SMTP
/// server holds no request. At most `capacity` wait; beyond that new mail is refused.
public final class SignInMailQueue: Sendable {
    private let mailer: any MailSending
    private let queue: BoundedWorkQueue
    private let log: @Sendable (String) -> Void

    /// - Parameter log: told of each message that could not be sent (never the code).
    public init(mailer: any MailSending, capacity: Int = 256, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.mailer = mailer
        queue = BoundedWorkQueue(name: "belay-sign-in-mail", threads: 1, capacity: capacity)
        self.log = log
    }

    /// Queues `message`; false when `capacity` messages are already waiting.
    public func enqueue(_ message: MailMessage) -> Bool {
        queue.submit { [mailer, log] in
            do {
                try mailer.send(message)
            } catch {
                log("sign-in mail to \(Self.masked(message.to)) was not sent: \(error)")
            }
        }
    }

    /// Waits until every queued message has been tried (tests, shutdown).
    public func drain() {
        queue.waitUntilIdle()
    }

    /// `j***@example.com`: enough to tell addresses apart in a log, not enough to read them.
    static func masked(_ address: String) -> String {
        guard let at = address.firstIndex(of: "@") else { return "***" }
        return String(address.prefix(1)) + "***" + String(address[at...])
    }
}
