import BelayCore
import Foundation

/// The keys Belay knows, the JSON type of each and the tree of built-in defaults, made from
/// `SettingDeclaration.all`.
struct ConfigurationSchema: Sendable {
    enum ValueType: Sendable, Equatable {
        case string, integer
        /// A JSON array of strings.
        case stringList
        case map(of: ValueType.Leaf)
        case section

        enum Leaf: Sendable, Equatable { case string, integer }

        var name: String {
            switch self {
            case .string: return "a string"
            case .integer: return "an integer"
            case .stringList: return "an array of strings"
            case .map: return "an object"
            case .section: return "an object"
            }
        }
    }

    /// The default tree, shaped as `config.json`.
    let defaults: JSONValue
    /// Every settable key path (sections excluded, open maps included) with its type, in
    /// the order of the defaults.
    let leaves: [(path: String, type: ValueType)]
    /// Keys holding file-system paths; a relative path is resolved against the directory of
    /// the configuration file it came from (or the working directory for the environment).
    let pathKeys: Set<String>
    /// Keys holding lists of file-system paths, each resolved like a `pathKeys` value.
    let pathListKeys: Set<String>

    static let shared = ConfigurationSchema(SettingDeclaration.all)

    init(_ settings: [SettingDeclaration]) {
        defaults = Self.tree(settings.map { ($0.key, $0.defaultValue) })
        leaves = settings.map { ($0.key, $0.type) }
        pathKeys = Set(settings.filter { $0.isPath && $0.type == .string }.map(\.key))
        pathListKeys = Set(settings.filter { $0.isPath && $0.type == .stringList }.map(\.key))
    }

    /// The `config.json`-shaped tree of `values`, each at its dotted key path, sections in the
    /// order their first key comes.
    static func tree(_ values: [(key: String, value: JSONValue)]) -> JSONValue {
        func insert(_ value: JSONValue, at path: ArraySlice<Substring>, into object: inout JSONObject) {
            let key = String(path.first!)
            guard path.count > 1 else {
                precondition(object[key] == nil, "\(key) is declared twice")
                object[key] = value
                return
            }
            guard case var .object(section) = object[key] ?? .object(JSONObject()) else {
                preconditionFailure("\(key) is both a setting and a section")
            }
            insert(value, at: path.dropFirst(), into: &section)
            object[key] = .object(section)
        }
        var root = JSONObject()
        for (key, value) in values { insert(value, at: key.split(separator: ".")[...], into: &root) }
        return .object(root)
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The type expected at `path`, `.section` for a fixed object, nil when the key is unknown.
    func type(at path: String) -> ValueType? {
        if path.isEmpty { return .section }
        if let leaf = leaves.first(where: { $0.path == path }) { return leaf.type }
        return leaves.contains(where: { $0.path.hasPrefix(path + ".") }) ? .section : nil
    }

    /// The keys directly inside the section at `path` ("" for the top level).
    func keys(in path: String) -> [String] {
        var keys: [String] = []
        for leaf in leaves where path.isEmpty || leaf.path.hasPrefix(path + ".") {
            let rest = path.isEmpty ? leaf.path : String(leaf.path.dropFirst(path.count + 1))
            let key = String(rest.prefix(while: { $0 != "." }))
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The environment variable that overrides `path`: `BELAY_` and the key path joined with
    /// `_`, upper-cased (`server.port` → `BELAY_SERVER_PORT`).
    static func environmentName(for path: String) -> String {
        "BELAY_" + path.replacingOccurrences(of: ".", with: "_").uppercased()
    }
}
