import BelayCore
import BelayConfig
import BelayDomain
import BelayRepresentations
import BelayStorage

extension DomainServices {
    /// The domain with the policies of `config.json`, its webhook payloads in the shapes the
    /// API answers with: the one way `belay serve` and every CLI command build it.
    /// - Parameter presentation: what the payloads need beyond the domain (by default the one
    ///   `config.json` gives; pass it when the caller shows entities too).
    /// - Parameter pool: opens the database; called once the policies are known to work.
    /// - Throws: `ApplicationError` naming the setting when a policy cannot work, or what
    ///   `pool` throws.
    public init(configuration: BelayConfiguration, presentation: Presentation? = nil, clock: any TimeSource,
                pool: () throws -> any DatabaseStore) throws {
        let settings = try DomainSettings(configuration: configuration)
        let pool = try pool()
        do {
            try self.init(pool: pool, clock: clock, settings: settings,
                          webhookPayloads: APIWebhookPayloads(presentation: presentation ?? Presentation(configuration: configuration),
                                                              checkIn: settings.checkIn))
        } catch let error as DomainError {
            throw ApplicationError(.invalidSetting(key: error.field ?? "check_in / rewards / render", message: error.message))
        }
    }
}
