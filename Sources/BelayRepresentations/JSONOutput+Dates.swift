import BelayCore
import Foundation

extension JSONOutput {
    /// A date-time member, RFC 3339 with the offset `offset` has at that instant; `null` for nil.
    public mutating func member(_ name: StaticString, _ date: Date?, offset: TimeZoneOffsets.Zone) {
        key(name)
        guard let date else { return null() }
        string(RFC3339.string(from: date, utcOffsetSeconds: offset.secondsFromGMT(for: date)))
    }

    /// `name` with `date` in RFC 3339 UTC (`…Z`), or null: instants that belong to no meetup's zone
    /// (sessions, tokens, invites).
    public mutating func member(_ name: StaticString, utc date: Date?) {
        key(name)
        guard let date else { return null() }
        string(RFC3339.string(from: date, utcOffsetSeconds: 0))
    }
}
