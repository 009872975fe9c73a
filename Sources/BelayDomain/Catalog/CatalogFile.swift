import BelayCore
import Foundation

/// The JSON files the assets produce: `Assets/holds/catalog.json` and
/// `Assets/backgrounds/catalog.json`, version 1.
struct HoldCatalogFile: Decodable {
    struct Entry: Decodable {
        let id: String
        let name: String
        let type: String
        let color: String
        let rarity: String
        let artwork: String
        let milestone_only: Bool?
        /// The name in other languages, by language code (`ko`, `ja`).
        let names: [String: String]?
    }
    let version: Int
    let holds: [Entry]
}

public struct BackgroundCatalogFile: Decodable, Sendable {
    /// One background: its id and name, its artwork file (relative to the catalogue) and the
    /// story gradient's colours (`#RRGGBB`).
    public struct Entry: Decodable, Sendable {
        public let id: String
        public let name: String
        public let file: String
        public let top_color: String
        public let bottom_color: String
    }
    public let version: Int
    public let backgrounds: [Entry]

    /// The entry for the artwork at `artworkPath`, from the `catalog.json` in the artwork's
    /// folder, for rendering one artwork outside the database (`belay render story`); nil
    /// when there is no such file, it cannot be read as a catalogue, or it does not list the
    /// artwork.
    public static func entry(describing artworkPath: String) -> Entry? {
        let artwork = URL(fileURLWithPath: artworkPath)
        let catalog = artwork.deletingLastPathComponent().appendingPathComponent("catalog.json")
        guard let data = FileManager.default.contents(atPath: catalog.path),
              let file = try? JSONDecoder().decode(BackgroundCatalogFile.self, from: data) else { return nil }
        return file.backgrounds.first { $0.file == artwork.lastPathComponent }
    }
}

/// Reading and checking catalogue files before anything is written.
enum CatalogFileReader {
    /// Each hold's names by language from `holds/catalog.json`.
    static func localizedHoldNames(assetsDirectory: String) throws -> [String: [String: String]] {
        let path = (assetsDirectory as NSString).appendingPathComponent("holds/catalog.json")
        let file: HoldCatalogFile = try decode(path)
        var names: [String: [String: String]] = [:]
        for entry in file.holds { names[entry.id] = entry.names ?? [:] }
        return names
    }

    static func holds(assetsDirectory: String) throws -> [Hold] {
        let path = (assetsDirectory as NSString).appendingPathComponent("holds/catalog.json")
        let file: HoldCatalogFile = try decode(path)
        guard file.version == 1 else { throw invalid(path, "has version \(file.version); this Belay reads version 1") }
        guard !file.holds.isEmpty else { throw invalid(path, "lists no holds; an empty catalogue would retire every hold") }
        var seen = Set<String>()
        return try file.holds.enumerated().map { index, entry in
            let place = "hold \(index + 1) (\(entry.id))"
            try checkID(entry.id, place, path)
            guard seen.insert(entry.id).inserted else { throw invalid(path, "lists the hold id \(entry.id) twice") }
            guard !entry.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid(path, "\(place) has an empty name") }
            guard !entry.type.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid(path, "\(place) has an empty type") }
            try checkColor(entry.color, "color", place, path)
            guard let rarity = HoldRarity(rawValue: entry.rarity) else {
                throw invalid(path, "\(place) has rarity \"\(entry.rarity)\"; use common, uncommon, rare or epic")
            }
            let artworkPath = try checkFile(entry.artwork, folder: "holds", place, path, assetsDirectory: assetsDirectory)
            return Hold(id: entry.id, name: entry.name, type: entry.type, color: entry.color.uppercased(), rarity: rarity,
                        artworkPath: artworkPath, milestoneOnly: entry.milestone_only ?? false, retiredAt: nil)
        }
    }

    static func backgrounds(assetsDirectory: String) throws -> [Background] {
        let path = (assetsDirectory as NSString).appendingPathComponent("backgrounds/catalog.json")
        let file: BackgroundCatalogFile = try decode(path)
        guard file.version == 1 else { throw invalid(path, "has version \(file.version); this Belay reads version 1") }
        guard !file.backgrounds.isEmpty else { throw invalid(path, "lists no backgrounds") }
        var seen = Set<String>()
        return try file.backgrounds.enumerated().map { index, entry in
            let place = "background \(index + 1) (\(entry.id))"
            try checkID(entry.id, place, path)
            guard seen.insert(entry.id).inserted else { throw invalid(path, "lists the background id \(entry.id) twice") }
            guard !entry.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid(path, "\(place) has an empty name") }
            try checkColor(entry.top_color, "top_color", place, path)
            try checkColor(entry.bottom_color, "bottom_color", place, path)
            let filePath = try checkFile(entry.file, folder: "backgrounds", place, path, assetsDirectory: assetsDirectory)
            return Background(id: entry.id, name: entry.name, filePath: filePath, topColor: entry.top_color.uppercased(),
                              bottomColor: entry.bottom_color.uppercased(), retiredAt: nil)
        }
    }

    private static func decode<T: Decodable>(_ path: String) throws -> T {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DomainError(.invalidCatalog, "Cannot read \(path); check the assets directory (it should contain holds/ and backgrounds/)", field: "assets_directory")
        }
        let tree: JSONValue
        do {
            tree = try JSONParser.parse(Array(data))
        } catch {
            throw invalid(path, "is not valid JSON: \(error)")
        }
        do {
            return try StrictJSONDecoder(refusesUnknownMembers: false).decode(T.self, from: tree)
        } catch let DecodingError.keyNotFound(key, context) {
            throw invalid(path, "misses the key \"\(key.stringValue)\" at \(describe(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw invalid(path, "has a value of the wrong type at \(describe(context.codingPath + [])): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw invalid(path, "has null at \(describe(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) {
            throw invalid(path, "has a value that does not fit at \(describe(context.codingPath)): \(context.debugDescription)")
        }
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func invalid(_ path: String, _ problem: String) -> DomainError {
        DomainError(.invalidCatalog, "The catalogue \(path) \(problem); fix the file and import again")
    }

    private static func checkID(_ id: String, _ place: String, _ path: String) throws {
        let scalars = id.unicodeScalars
        guard (1...64).contains(id.count), scalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }),
              scalars.first != "-" else {
            throw invalid(path, "has \(place) whose id is not 1–64 lowercase letters, digits or '-'")
        }
    }

    private static func checkColor(_ color: String, _ key: String, _ place: String, _ path: String) throws {
        let scalars = Array(color.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#", scalars.dropFirst().allSatisfy({ $0.properties.isASCIIHexDigit }) else {
            throw invalid(path, "has \(place) whose \(key) \"\(color)\" is not #RRGGBB")
        }
    }

    private static func checkFile(_ name: String, folder: String, _ place: String, _ path: String,
                                  assetsDirectory: String) throws -> String {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw invalid(path, "has \(place) whose file \"\(name)\" is not a path inside \(folder)/")
        }
        let relative = "\(folder)/\(name)"
        let absolute = (assetsDirectory as NSString).appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: absolute) else {
            throw invalid(path, "has \(place) whose file \(absolute) does not exist")
        }
        return relative
    }
}
