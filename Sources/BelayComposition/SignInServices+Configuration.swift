import BelayAPI
import BelayConfig
import BelayDomain
import BelayCore
import BelayIdentity
import BelayUseCases
import Foundation

extension SignInServices {
    /// Sign-in from `config.json`: Apple when `auth.apple.client_ids` is set (with revocation
    /// when the team's key is), Google when `auth.google.client_ids` is set, email through
    /// `mail.smtp_url` or the development outbox (`mail.transport`), and the `rate_limits` of `/v1/auth/*`.
    /// - Throws: `ApplicationError` naming the key when Apple's key file cannot be used.
    public init(configuration: BelayConfiguration, clock: any TimeSource, log: @escaping @Sendable (String) -> Void) throws {
        let auth = configuration.auth
        let apple = auth.apple.clientIDs.isEmpty ? nil : IdentityTokenVerifier(
            settings: IdentityTokenVerifierSettings(provider: .apple, jwksURL: auth.apple.jwksURL, clientIDs: auth.apple.clientIDs), clock: clock)
        let google = auth.google.clientIDs.isEmpty ? nil : IdentityTokenVerifier(
            settings: IdentityTokenVerifierSettings(provider: .google, jwksURL: auth.google.jwksURL, clientIDs: auth.google.clientIDs), clock: clock)
        var appleAccounts: AppleAccountClient?
        if !auth.apple.privateKeyFile.isEmpty, let clientID = auth.apple.clientIDs.first {
            do {
                // The URLs are the operator's, not a caller's: they may point at a relay on the club's network.
                appleAccounts = try AppleAccountClient(settings: AppleClientSettings(
                    teamID: auth.apple.teamID, keyID: auth.apple.keyID, privateKeyFile: auth.apple.privateKeyFile, clientID: clientID,
                    tokenURL: auth.apple.tokenURL, revokeURL: auth.apple.revokeURL, allowPrivateAddresses: true), clock: clock)
            } catch {
                throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): auth.apple.private_key_file",
                                                       message: "\(error)"))
            }
        }
        let mail = configuration.mail
        let mailer: (any MailSending)? = switch configuration.mailTransport {
        case .smtp:
            SMTPMailer(settings: SMTPSettings(url: mail.smtpURL, username: mail.username.isEmpty ? nil : mail.username,
                                              password: mail.password.isEmpty ? nil : mail.password, from: mail.from,
                                              requireTLS: mail.requireTLS), clock: clock)
        case .outbox:
            MailOutbox(directory: configuration.mailOutboxDirectory, clock: clock, log: log)
        case .auto, .off:
            nil
        }
        let queue = mailer.map { SignInMailQueue(mailer: $0, log: log) }
        let limits: AuthRateLimits
        do {
            limits = try AuthRateLimits(addressRequestsPerMinute: configuration.rateLimits.authPerAddressPerMinute,
                                        emailsPerHour: configuration.rateLimits.authPerEmailPerHour, clock: clock)
        } catch {
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): rate_limits", message: "\(error)"))
        }
        self.init(apple: apple, google: google, appleAccounts: appleAccounts, mail: queue, limits: limits,
                  publicBaseURL: configuration.server.publicBaseURL, clubName: configuration.club.name)
        self.log = log
    }
}

extension AccountErasure {
    /// Account deletion as `belay users delete` runs it: Apple's tokens revoked with the team key
    /// of `configuration` (when it is set and loads; otherwise the aftermath says why not).
    public init(configuration: BelayConfiguration, accounts: AccountService, clock: any TimeSource = SystemTimeSource()) {
        do {
            let apple = try SignInServices(configuration: configuration, clock: clock, log: { _ in }).appleAccounts
            self.init(accounts: accounts, appleAccounts: apple)
        } catch {
            self.init(accounts: accounts, appleAccounts: nil, appleUnavailable: "\(error)")
        }
    }
}

extension APIRateLimits {
    /// The `rate_limits` of changes, share events and public pages from `config.json`.
    /// - Throws: `ApplicationError` naming the section when a limit cannot work.
    public init(configuration: BelayConfiguration, clock: any TimeSource) throws {
        let limits = configuration.rateLimits
        do {
            try self.init(writesPerMinute: limits.writesPerMemberPerMinute, shareEventsPerMinute: limits.shareEventsPerMemberPerMinute,
                          publicPerMinute: limits.publicPerAddressPerMinute, clock: clock)
        } catch {
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): rate_limits", message: "\(error)"))
        }
    }
}
