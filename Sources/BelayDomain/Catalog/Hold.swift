import Foundation

/// How rare a hold is; the reward policy weighs the tiers.
public enum HoldRarity: String, Sendable, CaseIterable, Codable, Comparable {
    case common
    case uncommon
    case rare
    case epic

    public static func < (lhs: HoldRarity, rhs: HoldRarity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A climbing-hold artwork that can be awarded.
public struct Hold: Sendable, Hashable {
    /// Stable id from the catalogue, e.g. `jug-crimson`.
    public let id: String
    public let name: String
    /// The kind of hold: jug, crimp, sloper, pinch, volume, …
    public let type: String
    /// `#RRGGBB`.
    public let color: String
    public let rarity: HoldRarity
    /// The artwork PNG, relative to the assets directory (e.g. `holds/jug-crimson.png`).
    public let artworkPath: String
    /// Awarded only as a milestone, never by the weighted pick.
    public let milestoneOnly: Bool
    /// Set when a later catalogue no longer lists the hold; retired holds are not picked
    /// but stay on rewards already given.
    public let retiredAt: Date?

    public var isRetired: Bool { retiredAt != nil }
}

/// A sticker background artwork and the story gradient colours that go with it.
public struct Background: Sendable, Hashable {
    public let id: String
    public let name: String
    /// The PNG, relative to the assets directory (e.g. `backgrounds/dawn.png`).
    public let filePath: String
    /// `#RRGGBB` for the top of the story gradient (and Instagram's `backgroundTopColor`).
    public let topColor: String
    /// `#RRGGBB` for the bottom of the story gradient.
    public let bottomColor: String
    public let retiredAt: Date?

    public var isRetired: Bool { retiredAt != nil }
}

/// What a catalogue import changed.
public struct CatalogImportReport: Sendable, Hashable {
    public var holdsAdded = 0
    public var holdsUpdated = 0
    public var holdsUnchanged = 0
    /// Holds no longer in the file: kept (they may have been awarded) but never picked again.
    public var holdsRetired = 0
    public var backgroundsAdded = 0
    public var backgroundsUpdated = 0
    public var backgroundsUnchanged = 0
    public var backgroundsRetired = 0
}
