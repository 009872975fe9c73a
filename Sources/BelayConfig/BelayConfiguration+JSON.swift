import BelayCore

extension BelayConfiguration {
    /// The effective settings as `config.json`-shaped JSON (resolved paths, the effective
    /// database path and thread count), for `belay config show`: each setting as its
    /// declaration shows it (`SettingDeclaration.shown`), passwords left out. Loading it again
    /// gives the same configuration.
    public func formattedJSON() -> String {
        ConfigurationSchema.tree(SettingDeclaration.all.map { ($0.key, $0.shown(self)) }).prettyPrinted()
    }
}
