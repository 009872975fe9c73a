import BelayDomain
import Foundation

extension Meetup {
    /// The meetup's own time zone (validated by the domain when it was created).
    var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)! }
}
