import Foundation
import BelayArguments
import BelayCore
import BelayConfig

extension CommandContext {
    /// The configuration from `--config`, `$BELAY_CONFIG`, `./config.json` or the defaults,
    /// with `BELAY_*` overrides; loaded and validated once per run.
    /// - Throws: `ConfigurationError` naming each wrong key.
    public func configuration() throws -> BelayConfiguration {
        try cached(BelayConfiguration.self) {
            try BelayConfiguration.load(configFile: configFile, environment: environment, currentDirectory: currentDirectory)
        }
    }

    /// Writes `value` as pretty-printed JSON with sorted, snake_case keys to standard output.
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date, fraction: .none))
        }
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
    }
}
