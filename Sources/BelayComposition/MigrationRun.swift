/// What `ClubDatabase.runMigrations(_:dryRun:)` applied, or on a dry run would apply.
public struct MigrationRun: Sendable, Equatable {
    /// The migrations applied now (none on a dry run).
    public var applied: [String]
    /// The migrations a dry run found missing (none otherwise).
    public var pending: [String]
    /// How many migrations the database had before.
    public var alreadyApplied: Int
}
