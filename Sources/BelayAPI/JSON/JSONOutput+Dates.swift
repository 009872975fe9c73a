import BelayCore
import Foundation

extension JSONOutput {
    /// A date-time member, RFC 3339 with the offset `offset` has at that instant; `null` for nil.
    public mutating func member(_ name: StaticString, _ date: Date?, offset: TimeZoneOffsets.Zone) {
        key(name)
        guard let date else { return null() }
        string(RFC3339.string(from: date, utcOffsetSeconds: offset.secondsFromGMT(for: date)))
    }
}
