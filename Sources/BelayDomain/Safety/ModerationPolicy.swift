import Foundation

/// The club's rules for reports, moderation and terms (`moderation.*`, `accounts.terms_*`).
public struct ModerationPolicy: Sendable, Hashable {
    /// Distinct members whose open reports of one subject within `autoHideWindow` hide it
    /// until a moderator looks; 0 turns the automatic hide off.
    public var autoHideReports: Int
    /// The window of the automatic hide.
    public var autoHideWindow: TimeInterval
    /// Reports one member may file in a day; 0 means no limit.
    public var reportsPerMemberPerDay: Int
    /// The version of the terms every member must accept before changing anything; nil when
    /// the club asks for none.
    public var termsVersion: String?
    /// Where the terms are read; given with `terms_required`. `{locale}` in it becomes the
    /// member's language.
    public var termsURL: String?
    /// The language of members who chose none, for `{locale}` in `termsURL`.
    public var defaultLocale: MemberLocale = .en
    /// Days an account must be old before its meetups' descriptions may hold links; 0: no rule.
    public var newMemberDays: Int = 0
    /// Where a member appeals a moderator's decision (`club.contact_email`), named in their notice.
    public var appealAddress: String? = nil

    public init(autoHideReports: Int, autoHideWindow: TimeInterval, reportsPerMemberPerDay: Int,
                termsVersion: String? = nil, termsURL: String? = nil) {
        self.autoHideReports = autoHideReports
        self.autoHideWindow = autoHideWindow
        self.reportsPerMemberPerDay = reportsPerMemberPerDay
        self.termsVersion = termsVersion.flatMap { $0.isEmpty ? nil : $0 }
        self.termsURL = termsURL.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// No automatic hide, 20 reports a day, no terms.
    public static let standard = ModerationPolicy(autoHideReports: 0, autoHideWindow: 86_400, reportsPerMemberPerDay: 20)

    /// - Throws: `DomainError` (`invalid_input`) naming the setting that cannot work.
    public func validate() throws {
        guard autoHideReports >= 0 else {
            throw DomainError.invalid("moderation.auto_hide_reports", "The automatic hide needs 0 (off) or more reports (got \(autoHideReports))")
        }
        guard autoHideWindow >= 3_600 else {
            throw DomainError.invalid("moderation.auto_hide_window_hours", "The automatic hide's window is at least an hour")
        }
        guard reportsPerMemberPerDay >= 0 else {
            throw DomainError.invalid("moderation.reports_per_member_per_day", "Give 0 (no limit) or more reports a day (got \(reportsPerMemberPerDay))")
        }
        guard newMemberDays >= 0 else {
            throw DomainError.invalid("moderation.new_member_days", "Give 0 (no rule) or more days (got \(newMemberDays))")
        }
        if let termsVersion, !(1...40).contains(termsVersion.count) {
            throw DomainError.invalid("accounts.terms_version", "A terms version is 1–40 characters (got \(termsVersion.count))")
        }
    }
}
