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
        let appleAccounts = try AppleAccountClient(configuration: configuration, clock: clock)
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

extension AppleAccountClient {
    /// Apple's token exchange and revocation with the team's key of `config.json`
    /// (`auth.apple.private_key_file`, `key_id`, `team_id`, the first of `client_ids`); nil
    /// when no key is set.
    /// - Throws: `ApplicationError` naming `auth.apple.private_key_file` when the key cannot be used.
    convenience init?(configuration: BelayConfiguration, clock: any TimeSource) throws {
        let apple = configuration.auth.apple
        guard !apple.privateKeyFile.isEmpty, let clientID = apple.clientIDs.first else { return nil }
        do {
            // The URLs are the operator's, not a caller's: they may point at a relay on the club's network.
            try self.init(settings: AppleClientSettings(
                teamID: apple.teamID, keyID: apple.keyID, privateKeyFile: apple.privateKeyFile, clientID: clientID,
                tokenURL: apple.tokenURL, revokeURL: apple.revokeURL, allowPrivateAddresses: true), clock: clock)
        } catch {
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): auth.apple.private_key_file",
                                                   message: "\(error)"))
        }
    }
}

extension AccountErasure {
    /// Account deletion as `belay users delete` runs it: Apple's tokens revoked with the team key
    /// of `configuration` (when it is set and loads; otherwise the aftermath says why not).
    public init(configuration: BelayConfiguration, accounts: AccountService, clock: any TimeSource = SystemTimeSource()) {
        do {
            self.init(accounts: accounts, appleAccounts: try AppleAccountClient(configuration: configuration, clock: clock))
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
