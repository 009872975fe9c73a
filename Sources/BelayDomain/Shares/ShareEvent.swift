import Foundation

/// Where a member shared a reward, normalised from what the app reported.
public enum ShareTarget: String, Sendable, CaseIterable, Codable {
    case instagramStories = "instagram_stories"
    case facebookStories = "facebook_stories"
    /// The system share sheet; `activityType` says which activity (if any) was picked.
    case shareSheet = "share_sheet"
    case other

    /// Normalises the app's target string and activity type:
    /// - a target starting with `instagram` → `instagram_stories`, `facebook` → `facebook_stories`;
    /// - `share_sheet`, `sharesheet`, `share-sheet`, `system`, `activity`, `activity_sheet`,
    ///   `android_share`, `ios_share` → `share_sheet`;
    /// - no target but an activity type (the share sheet reported one) → `share_sheet`;
    /// - anything else → `other`.
    public static func normalise(target: String?, activityType: String?) -> ShareTarget {
        let cleaned = (target ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        if cleaned.isEmpty {
            if let activityType, !activityType.isEmpty { return .shareSheet }
            return .other
        }
        if cleaned.hasPrefix("instagram") { return .instagramStories }
        if cleaned.hasPrefix("facebook") { return .facebookStories }
        let shareSheetNames: Set<String> = ["share_sheet", "sharesheet", "system", "system_share", "activity",
                                            "activity_sheet", "android_share", "ios_share", "share"]
        if shareSheetNames.contains(cleaned) { return .shareSheet }
        return .other
    }
}

/// A share event as the app reports it.
public struct NewShareEvent: Sendable, Hashable {
    public var rewardID: Int64
    /// The app's target name (normalised into `ShareTarget`, kept as sent too).
    public var target: String?
    /// Exactly as the share sheet reported it (e.g. `com.apple.UIKit.activity.SaveToCameraRoll`);
    /// nil when the sheet was dismissed. At most 500 characters.
    public var activityType: String?
    public var completed: Bool
    /// The error the share sheet reported; at most 2,000 characters.
    public var error: String?
    /// The app's own id for this event (1–200 characters): a retry with the same id records nothing new.
    public var clientEventID: String

    public init(rewardID: Int64, target: String?, activityType: String?, completed: Bool, error: String? = nil,
                clientEventID: String) {
        self.rewardID = rewardID
        self.target = target
        self.activityType = activityType
        self.completed = completed
        self.error = error
        self.clientEventID = clientEventID
    }
}

/// A recorded share event.
public struct ShareEvent: Sendable, Hashable {
    public let id: Int64
    public let rewardID: Int64
    public let memberID: Int64
    public let meetupID: Int64
    public let target: ShareTarget
    public let reportedTarget: String?
    public let activityType: String?
    public let completed: Bool
    public let error: String?
    public let clientEventID: String
    /// When Belay recorded it.
    public let occurredAt: Date
}

/// What `ShareService.record` did.
public struct ShareEventResult: Sendable, Hashable {
    /// The event: the first one recorded when this was a retry.
    public let event: ShareEvent
    /// True when the client event id was seen before and nothing new was recorded.
    public let isRepeat: Bool
}

/// Share counts for one meetup, target and day (in the club's time zone).
public struct ShareStatistic: Sendable, Hashable {
    public let meetupID: Int64
    public let meetupTitle: String
    public let target: ShareTarget
    /// `yyyy-MM-dd` in the club's time zone.
    public let day: String
    /// All events.
    public var events: Int
    /// Events the app reported as completed.
    public var completed: Int
    /// Events with an error.
    public var failed: Int
    /// Not completed and no error: the member dismissed the sheet.
    public var dismissed: Int
}

/// Where a page of share statistics ends: the last row's meetup, day and target. Rows
/// after it (in the list's order) form the next page.
public struct ShareStatisticKey: Sendable, Hashable {
    public let meetupID: Int64
    /// `yyyy-MM-dd` in the club's time zone.
    public let day: String
    /// `ShareTarget.rawValue`.
    public let target: String

    public init(meetupID: Int64, day: String, target: String) {
        self.meetupID = meetupID
        self.day = day
        self.target = target
    }

    /// Before every row.
    public static let start = ShareStatisticKey(meetupID: 0, day: "", target: "")
}

/// One page of share statistics.
public struct ShareStatisticsPage: Sendable, Hashable {
    public let items: [ShareStatistic]
    /// Pass as `after` for the next page; nil on the last page.
    public let next: ShareStatisticKey?
}
