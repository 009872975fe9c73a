import Foundation

/// What push notices say and when, and how their delivery is retried.
public struct PushPolicy: Sendable {
    /// A reminder goes out this many minutes before a meetup starts.
    public var reminderMinutesBefore: Int
    /// A member holding an offer is warned this many minutes before it runs out.
    public var offerWarningMinutes: Int
    /// The club's address (`server.public_base_url`): links and image URLs in notices start with it.
    public var publicBaseURL: String
    /// The language of a member who chose none, on a device that said none.
    public var defaultLocale: MemberLocale
    /// Attempts before a notice is given up.
    public var maxAttempts: Int
    /// How long a worker holds a claimed notice before another may send it again.
    public var leaseSeconds: Int
    /// Sent, dropped and failed notices are deleted after this many days.
    public var retentionDays: Int
    /// Holds' names in the members' languages (a reward's notice names its hold).
    public var holdNames = LocalizedHoldNames()
    /// The platforms a push service is configured for: devices of others are told nothing.
    public var platforms: Set<DevicePlatform> = Set(DevicePlatform.allCases)
    /// The kinds of notice this Belay sends: Belay's own, and any a deployment or a test adds
    /// (each worded by BelayPush's `NoticeWording`).
    public var kinds: NoticeKinds = .belay

    /// The reminder, warning, address, language and retention come from `config.json`; the
    /// attempts and lease are Belay's own.
    public init(reminderMinutesBefore: Int, offerWarningMinutes: Int, publicBaseURL: String,
                defaultLocale: MemberLocale, maxAttempts: Int = 8, leaseSeconds: Int = 60, retentionDays: Int) {
        self.reminderMinutesBefore = reminderMinutesBefore
        self.offerWarningMinutes = offerWarningMinutes
        self.publicBaseURL = publicBaseURL
        self.defaultLocale = defaultLocale
        self.maxAttempts = maxAttempts
        self.leaseSeconds = leaseSeconds
        self.retentionDays = retentionDays
    }

    /// - Throws: `DomainError` (`invalid_input`) naming the setting that is out of range.
    public func validate() throws {
        guard (0...10_080).contains(reminderMinutesBefore) else {
            throw DomainError.invalid("push.reminder_minutes_before", "push.reminder_minutes_before is 0 (no reminders) to 10080 (a week); got \(reminderMinutesBefore)")
        }
        guard (0...120).contains(offerWarningMinutes) else {
            throw DomainError.invalid("push.offer_warning_minutes", "push.offer_warning_minutes is 0 (no warning) to 120; got \(offerWarningMinutes)")
        }
        guard (1...50).contains(maxAttempts) else { throw DomainError.invalid("push.max_attempts", "push.max_attempts is 1 to 50; got \(maxAttempts)") }
        guard (5...3_600).contains(leaseSeconds) else { throw DomainError.invalid("push.lease_seconds", "push.lease_seconds is 5 to 3600; got \(leaseSeconds)") }
        guard (1...3_650).contains(retentionDays) else { throw DomainError.invalid("push.retention_days", "push.retention_days is 1 to 3650; got \(retentionDays)") }
    }

    /// The wait before attempt `attempt + 1`: 5 s, 10 s, 20 s, … up to an hour.
    public func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        min(3_600, 5 * pow(2, Double(max(0, attempt - 1))))
    }
}
