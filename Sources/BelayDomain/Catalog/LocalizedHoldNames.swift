import Foundation

/// The holds' names in the club's language, from the `names` of each entry of the hold
/// catalogue (`holds/catalog.json`): what a Korean club's story calls the hold ("골드 저그")
/// instead of its English catalogue name ("Gold Jug").
public struct LocalizedHoldNames: Sendable {
    private let names: [String: [String: String]]

    /// Reads the catalogue under `assetsDirectory`.
    /// - Throws: `DomainError` (`invalid_catalog`) when it cannot be read or is malformed.
    public init(assetsDirectory: String) throws {
        names = try CatalogFileReader.localizedHoldNames(assetsDirectory: assetsDirectory)
    }

    /// Names given directly, by hold id and language code.
    public init(names: [String: [String: String]] = [:]) {
        self.names = names
    }

    /// `hold`'s name in the language of `locale` (`ko_KR` → `ko`; a `zh-Hant` entry wins over
    /// `zh` for `zh_TW`), its catalogue name when the catalogue has none in that language.
    public func name(of hold: Hold, locale: String) -> String {
        guard let byLanguage = names[hold.id], !byLanguage.isEmpty else { return hold.name }
        let language = Locale(identifier: locale).language
        var candidates: [String] = []
        if let code = language.languageCode?.identifier {
            if let script = language.script?.identifier { candidates.append("\(code)-\(script)") }
            if let region = language.region?.identifier { candidates.append("\(code)-\(region)") }
            candidates.append(code)
        }
        for candidate in candidates {
            if let name = byLanguage[candidate], !name.trimmingCharacters(in: .whitespaces).isEmpty { return name }
        }
        return hold.name
    }
}
