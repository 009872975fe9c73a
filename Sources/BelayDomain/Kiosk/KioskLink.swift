import Foundation

/// A new front-desk kiosk link, as its maker gets it once: only the SHA-256 of `token` is kept.
public struct KioskLink: Sendable, Hashable {
    /// The link's secret (43 base64url characters, 256 random bits): the last part of `/k/{token}`.
    public let token: String
    public let meetupID: Int64
    /// When the link stops working: when the meetup's check-in window closes (later if the
    /// meetup is moved later, sooner if earlier).
    public let validUntil: Date
}

/// What a kiosk link shows now.
public enum KioskScreen: Sendable, Hashable {
    /// The meetup, its counts and, inside the check-in window, the code to show.
    case live(KioskView)
    /// The link no longer shows anything, and why.
    case gone(KioskGoneReason)
}

/// Why a kiosk link stopped working.
public enum KioskGoneReason: String, Sendable, Hashable, CaseIterable {
    /// A host or admin revoked it (every link of the meetup goes at once).
    case revoked
    /// The meetup's check-in window has closed (or the meetup was completed).
    case closed
    /// The meetup was cancelled.
    case cancelled
}

/// The kiosk's screen while its link works.
public struct KioskView: Sendable, Hashable {
    public let meetup: Meetup
    public let window: CheckInWindow
    /// The code to show now, or nil while the window has not opened yet.
    public let code: CheckInCode?
    /// The server's time the view was read at: the countdowns are measured from it, not from
    /// the kiosk's own clock.
    public let now: Date

    /// Members checked in, out of those holding a place: "12 of 20 checked in".
    public var checkedIn: Int { meetup.checkedInCount }
    public var holdingAPlace: Int { meetup.goingCount }
}
