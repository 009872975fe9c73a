import Foundation

/// When and how members may check in, from `config.json`'s `check_in` section (BelayComposition
/// maps it; the values have no defaults here).
///
/// Lock-out rule: after `maxWrongAttempts` wrong codes for one member at one meetup, code
/// check-in for that pair is refused with `too_many_attempts` until `lockoutMinutes` have
/// passed since the last wrong code; then the count starts again from zero. A correct code
/// clears the count. A host or admin can still check the member in at any time.
public struct CheckInPolicy: Sendable, Hashable {
    /// The window opens this many minutes before the meetup starts.
    public var opensMinutesBeforeStart: Int
    /// The window closes this many minutes after the meetup ends.
    public var closesMinutesAfterEnd: Int
    /// How long one check-in code is shown, in seconds (30…60).
    public var codeStepSeconds: Int
    /// Wrong codes allowed per member and meetup before the lock-out.
    public var maxWrongAttempts: Int
    /// How long the lock-out lasts after the last wrong code.
    public var lockoutMinutes: Int

    public init(opensMinutesBeforeStart: Int, closesMinutesAfterEnd: Int,
                codeStepSeconds: Int, maxWrongAttempts: Int, lockoutMinutes: Int = 15) {
        self.opensMinutesBeforeStart = opensMinutesBeforeStart
        self.closesMinutesAfterEnd = closesMinutesAfterEnd
        self.codeStepSeconds = codeStepSeconds
        self.maxWrongAttempts = maxWrongAttempts
        self.lockoutMinutes = lockoutMinutes
    }

    /// Checks every field.
    /// - Throws: `DomainError` (`invalid_input`) naming the first impossible field.
    public func validate() throws {
        guard opensMinutesBeforeStart >= 0 else {
            throw DomainError.invalid("opens_minutes_before_start", "must be 0 or more (got \(opensMinutesBeforeStart))")
        }
        guard closesMinutesAfterEnd >= 0 else {
            throw DomainError.invalid("closes_minutes_after_end", "must be 0 or more (got \(closesMinutesAfterEnd))")
        }
        guard (30...60).contains(codeStepSeconds) else {
            throw DomainError.invalid("code_step_seconds", "must be between 30 and 60 (got \(codeStepSeconds))")
        }
        guard maxWrongAttempts >= 1 else {
            throw DomainError.invalid("max_wrong_attempts", "must be 1 or more (got \(maxWrongAttempts))")
        }
        guard lockoutMinutes >= 1 else {
            throw DomainError.invalid("lockout_minutes", "must be 1 or more (got \(lockoutMinutes))")
        }
    }

    /// The check-in window of a meetup running from `start` to `end`.
    public func window(start: Date, end: Date) -> CheckInWindow {
        CheckInWindow(opensAt: start.addingTimeInterval(-Double(opensMinutesBeforeStart) * 60),
                      closesAt: end.addingTimeInterval(Double(closesMinutesAfterEnd) * 60))
    }
}

/// The span during which check-ins are accepted: `opensAt` inclusive, `closesAt` exclusive.
public struct CheckInWindow: Sendable, Hashable {
    public let opensAt: Date
    public let closesAt: Date

    /// Nil when `instant` lies inside the window, else the refusal for it.
    func refusal(at instant: Date) -> RefusalReason? {
        if instant < opensAt { return .windowNotOpen }
        if instant >= closesAt { return .windowClosed }
        return nil
    }
}
