import BelayConfig
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRender
import Foundation

extension DomainSettings {
    /// The domain's policies from `config.json`.
    /// - Throws: `ApplicationError` naming the key when a value passes the file's rules but
    ///   not the domain's (a rarity the catalogue does not have).
    public init(configuration: BelayConfiguration) throws {
        var weights: [HoldRarity: Int] = [:]
        for (name, weight) in configuration.rewards.rarityWeights {
            guard let rarity = HoldRarity(rawValue: name) else {
                let known = HoldRarity.allCases.map(\.rawValue).joined(separator: ", ")
                throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): rewards.rarity_weights.\(name)",
                                                       message: "not a rarity of the hold catalogue (\(known))"))
            }
            weights[rarity] = weight
        }
        self.init(
            checkIn: CheckInPolicy(opensMinutesBeforeStart: configuration.checkIn.opensMinutesBeforeStart,
                                   closesMinutesAfterEnd: configuration.checkIn.closesMinutesAfterEnd,
                                   codeStepSeconds: configuration.checkIn.codeStepSeconds,
                                   maxWrongAttempts: configuration.checkIn.maxWrongAttempts),
            rewards: RewardPolicy(milestones: configuration.rewards.milestones, rarityWeights: weights),
            renderJobs: RenderJobPolicy(maxAttempts: configuration.render.maxAttempts,
                                        retryBaseSeconds: configuration.render.retryBaseSeconds,
                                        leaseSeconds: configuration.backfill.leaseSeconds),
            clubTimeZone: configuration.club.zone
        )
    }
}

extension ServerSettings {
    /// The HTTP listener from `config.json`'s `server` section.
    public init(configuration: BelayConfiguration) {
        let server = configuration.server
        self.init(host: server.host, port: server.port, threads: server.threads,
                  connectionTimeoutSeconds: server.connectionTimeoutSeconds, maxConnections: server.maxConnections,
                  maxConnectionsPerIP: server.maxConnectionsPerIP, maxBodyBytes: server.maxBodyBytes)
    }
}

extension Presentation {
    /// Links, names and App IDs from `config.json` (`server.public_base_url`, `club`, `share`).
    public init(configuration: BelayConfiguration) {
        self.init(clubZone: configuration.club.zone, clubName: configuration.club.name,
                  publicBaseURL: PublicBaseURL(configuration.server.publicBaseURL),
                  shareLinkBaseURL: configuration.club.shareLinkBaseURL, instagramAppID: configuration.share.instagramAppID,
                  facebookAppID: configuration.share.facebookAppID,
                  storyFileExtension: configuration.render.storyFormat == .jpeg ? "jpg" : "png")
        clubLocale = configuration.club.locale
        let fonts = configuration.fonts
        fontCoverage = try? FontCoverage(fonts: FontSettings(
            bold: fonts.bold, regular: fonts.regular, fallbacks: fonts.fallbacks, emoji: fonts.emoji, lastResort: fonts.lastResort))
        if configuration.share.storiesBackground == .image {
            storyBackgrounds = StoryBackgrounds(
                dataDirectory: configuration.dataDirectory, width: configuration.share.storiesBackgroundWidth,
                height: configuration.share.storiesBackgroundHeight)
        }
    }
}
