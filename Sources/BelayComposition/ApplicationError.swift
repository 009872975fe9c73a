import BelayDomain

/// Why the Belay application could not be built or started. Every message names the
/// setting, file or address at fault and what to do.
public struct ApplicationError: Error, CustomStringConvertible, Sendable {
    enum Kind: Sendable {
        case invalidSetting(key: String, message: String)
        case databaseMissing(path: String)
        case migrationsPending(path: String, names: [String])
        case databaseUnusable(path: String, reason: String)
        case dataDirectoryUnusable(path: String, reason: String)
        case catalogueUnusable(reason: String)
        case cannotListen(reason: String)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case let .invalidSetting(key, message):
            return "The setting \(key) cannot work: \(message). Fix it in config.json (or its BELAY_* variable)."
        case let .databaseMissing(path):
            return "There is no database at \(path). Run `belay migrate` to create it, or start `belay serve` with an empty data directory to set everything up."
        case let .migrationsPending(path, names):
            return "The database at \(path) is missing \(Plural.counted(names.count, "migration")) this version of Belay needs (\(names.joined(separator: ", "))). Back it up with `belay db backup FILE`, then run `belay migrate`."
        case let .databaseUnusable(path, reason):
            return "The database at \(path) cannot be used: \(reason)."
        case let .dataDirectoryUnusable(path, reason):
            return "The data directory \(path) cannot be used: \(reason). Create it or point data_directory somewhere writable."
        case let .catalogueUnusable(reason):
            return "The hold catalogue could not be imported: \(reason). Fix the catalogue under assets_directory, then run `belay holds import`."
        case let .cannotListen(reason):
            return "The server cannot listen: \(reason). Choose another server.port (0 picks a free one) or stop what uses it."
        }
    }
}
