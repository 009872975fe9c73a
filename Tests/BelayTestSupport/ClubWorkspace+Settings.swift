import Foundation

extension ClubWorkspace {
    /// Merges `sections` into config.json, section by section one level deep.
    /// - Throws: when the file cannot be read or written.
    public func rewriteConfig(adding sections: [String: [String: Any]]) throws {
        let url = URL(fileURLWithPath: configPath)
        var file = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        for (name, members) in sections {
            file[name] = (file[name] as? [String: Any] ?? [:]).merging(members) { $1 }
        }
        try JSONSerialization.data(withJSONObject: file, options: [.prettyPrinted, .sortedKeys]).write(to: url)
    }
}
