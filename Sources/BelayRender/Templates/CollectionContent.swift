/// A member's whole hold collection, for the `collection` template.
public struct CollectionContent: Sendable, Hashable {
    /// The member's display name, the header's title.
    public var memberName: String
    /// The holds, in the order they are shown (oldest first).
    public var items: [CollectionItem]
    /// The first and last dates shown in the header (nil for an empty collection).
    public var firstDate: String?
    public var lastDate: String?
    /// Holds collected out of the catalogue and the weekly streak, drawn under the header's
    /// subtitle; nil leaves them out (a host's view of the holds from their meetups).
    public var progress: CollectionProgress?

    public init(memberName: String, items: [CollectionItem], firstDate: String?, lastDate: String?,
                progress: CollectionProgress? = nil) {
        self.memberName = memberName
        self.items = items
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.progress = progress
    }
}

/// How far a member has come, as the collection's header shows it.
public struct CollectionProgress: Sendable, Hashable {
    /// Distinct catalogue holds collected.
    public var collected: Int
    /// Holds in the catalogue.
    public var total: Int
    /// Weeks in a row with a check-in, now.
    public var currentStreakWeeks: Int
    /// The longest run of weeks ever.
    public var longestStreakWeeks: Int

    public init(collected: Int, total: Int, currentStreakWeeks: Int, longestStreakWeeks: Int) {
        self.collected = collected
        self.total = total
        self.currentStreakWeeks = currentStreakWeeks
        self.longestStreakWeeks = longestStreakWeeks
    }
}

/// One hold of a collection: its artwork, and the place and date it was earned.
public struct CollectionItem: Sendable, Hashable {
    /// Path of the hold artwork (PNG with transparency).
    public var holdPath: String
    /// The place name, ellipsised to the cell's width.
    public var place: String
    /// The date, already formatted.
    public var date: String

    public init(holdPath: String, place: String, date: String) {
        self.holdPath = holdPath
        self.place = place
        self.date = date
    }
}

/// What a collection render produced.
public struct RenderedCollection: Sendable {
    public let path: String
    public let width: Int
    public let height: Int
    public let bytes: Int
    public let warnings: [String]
}
