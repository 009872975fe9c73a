import BelayCore
import Foundation
import Synchronization

/// Time zones by IANA identifier, looked up once and shared, so writing a meetup's times in
/// its own zone does not parse zone data on every request.
public final class TimeZoneOffsets: Sendable {
    /// A time zone whose UTC offset at an instant is cheap to ask for.
    public struct Zone: Sendable {
        /// The zone itself, for calendar arithmetic.
        public let zone: TimeZone

        public init(_ zone: TimeZone) { self.zone = zone }

        /// UTC itself.
        public static let utc = Zone(TimeZone(secondsFromGMT: 0)!)

        /// The zone's offset from UTC at `instant`, daylight saving included.
        public func secondsFromGMT(for instant: Date) -> Int { zone.secondsFromGMT(for: instant) }
    }

    private let zones = Mutex<[String: Zone]>([:])

    public init() {}

    /// The zone named `identifier`; UTC for an identifier the system does not know (the
    /// domain accepts only known zones, so that happens only to rows written elsewhere).
    public func zone(_ identifier: String) -> Zone {
        if let zone = zones.withLock({ $0[identifier] }) { return zone }
        let zone = TimeZone(identifier: identifier).map(Zone.init) ?? .utc
        zones.withLock { $0[identifier] = zone }
        return zone
    }
}
