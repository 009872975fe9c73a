import Foundation
import BelayArguments
import BelayConfig

/// `belay config show|check`: what the settings resolve to, and whether they are valid.
struct ConfigCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "config", abstract: "Show or check the effective settings.", subcommands: [Show.self, Check.self])
    }

    /// `belay config show`.
    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "show",
                abstract: "Print the effective settings as JSON (file, environment and defaults combined).",
                discussion: "Paths are shown resolved; database_path and server.threads show their effective values."
            )
        }

        /// Accepted like every command's `--json`: the output is JSON either way.
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            context.print(configuration.formattedJSON())
            context.note("Settings from \(configuration.sourceFile ?? "the built-in defaults") and BELAY_* variables.")
        }
    }

    /// `belay config check`.
    struct Check: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "check",
                abstract: "Check the settings and list every problem, each naming its key.",
                discussion: """
                    Exits 0 when the settings are valid, 1 with one line per problem otherwise. Valid settings that \
                    will not work in public (share links over plain HTTP, app links not set up) are listed as warnings.
                    """
            )
        }

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            context.print("ok")
            context.note("\(configuration.sourceFile ?? "The built-in defaults") and the BELAY_* variables are valid.")
            for warning in Self.warnings(configuration) { context.note("warning: " + warning) }
        }

        /// What valid settings still leave undone for share links in public.
        static func warnings(_ configuration: BelayConfiguration) -> [String] {
            var warnings: [String] = []
            let base = URL(string: configuration.server.publicBaseURL)
            let host = base?.host?.lowercased() ?? ""
            let isLoopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
            if base?.scheme?.lowercased() != "https", !isLoopback {
                warnings.append("server.public_base_url (\(configuration.server.publicBaseURL)) is not https: app links, link previews and iOS refuse plain HTTP in public; put Belay behind TLS (see deploy/nginx-belay.conf) and set an https address")
            }
            let links = configuration.appLinks
            if links.iosAppIDs.isEmpty {
                warnings.append("app_links.ios_app_ids is empty: share links open the page, never the iOS app (/.well-known/apple-app-site-association answers 404)")
            }
            if links.androidPackage.isEmpty || links.androidSHA256Fingerprints.isEmpty {
                let missing = [links.androidPackage.isEmpty ? "app_links.android_package" : nil,
                               links.androidSHA256Fingerprints.isEmpty ? "app_links.android_sha256_fingerprints" : nil].compactMap { $0 }
                warnings.append("\(missing.joined(separator: " and ")) not set: share links open the page, never the Android app (/.well-known/assetlinks.json answers 404)")
            }
            return warnings
        }
    }
}
