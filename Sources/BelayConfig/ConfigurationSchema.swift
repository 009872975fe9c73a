import BelayCore
import Foundation

/// The keys Belay knows and the JSON type of each, derived from `BuiltInDefaults`.
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

    /// The default tree.
    let defaults: JSONValue
    /// Every settable key path (sections excluded, open maps included) with its type, in
    /// the order of the defaults.
    let leaves: [(path: String, type: ValueType)]

    static let shared: ConfigurationSchema = {
        let defaults: JSONValue
        do { defaults = try JSONParser.parse(BuiltInDefaults.json) } catch {
            preconditionFailure("BuiltInDefaults.json is not valid JSON: \(error)")
        }
        var leaves: [(String, ValueType)] = []
        func walk(_ value: JSONValue, _ path: String) {
            if let leaf = BuiltInDefaults.openMaps[path] {
                leaves.append((path, .map(of: leaf == .integer ? .integer : .string)))
                return
            }
            switch value {
            case let .object(members): for member in members { walk(member.value, join(path, member.key)) }
            case .number: leaves.append((path, .integer))
            case .string: leaves.append((path, .string))
            case .array: leaves.append((path, .stringList))
            default: preconditionFailure("BuiltInDefaults.json: \(path) has an unsupported type")
            }
        }
        walk(defaults, "")
        return ConfigurationSchema(defaults: defaults, leaves: leaves)
    }()

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
