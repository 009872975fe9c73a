import BelayComposition
import BelayConfig
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRender
import Foundation

/// Each layer's settings as `belay serve` makes them from the built-in defaults: the built-in
/// `BelayConfiguration` through BelayComposition's own mapping. The layers' settings types
/// have no defaults of their own, so a test starts from these and changes only what it is
/// about:
///
/// ```swift
/// let settings = BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true }
/// ```
public enum BuiltInSettings {
    /// The built-in defaults, relative paths resolved under `/belay-built-in`, a folder that
    /// does not exist: settings read from `assets_directory` (hold names) stay empty, and a test
    /// names its own folders where it needs any.
    public static let configuration = BelayConfiguration.builtInDefaults(relativeTo: "/belay-built-in")

    /// The domain's policies.
    public static func domain(_ change: (inout DomainSettings) -> Void = { _ in }) -> DomainSettings {
        do {
            var settings = try DomainSettings(configuration: configuration)
            change(&settings)
            return settings
        } catch {
            preconditionFailure("the built-in defaults do not make domain settings: \(error)")
        }
    }

    /// The HTTP listener (on `server.port`; a test that starts a server sets `port` to 0).
    public static func server(_ change: (inout ServerSettings) -> Void = { _ in }) -> ServerSettings {
        var settings = ServerSettings(configuration: configuration)
        change(&settings)
        return settings
    }

    /// The render pipeline's settings with the data and assets in `dataDirectory` and
    /// `assetsDirectory` (a test's own folders).
    public static func renderPipeline(dataDirectory: String, assetsDirectory: String,
                                      _ change: (inout RenderPipelineSettings) -> Void = { _ in }) -> RenderPipelineSettings {
        var changed = configuration
        changed.dataDirectory = dataDirectory
        changed.assetsDirectory = assetsDirectory
        var settings = RenderPipelineSettings(configuration: changed)
        change(&settings)
        return settings
    }

    /// A renderer's fonts (the Debian files `config.json` names), image limits and the rest.
    public static func render(_ change: (inout RenderSettings) -> Void = { _ in }) -> RenderSettings {
        var settings = RenderSettings(configuration: configuration)
        change(&settings)
        return settings
    }
}
