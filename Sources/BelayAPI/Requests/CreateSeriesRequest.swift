import BelayDomain
import Foundation

/// `POST /v1/meetups/series`: a meetup as `POST /v1/meetups` takes it, repeated.
struct CreateSeriesRequest: Decodable {
    var title: String
    var description: String?
    var placeName: String
    var address: String?
    var startsAt: Date
    var endsAt: Date
    var timeZone: String?
    var capacity: Int
    var hostID: Int64?
    /// `weekly`.
    var repeats: String
    /// The last moment an occurrence may start.
    var until: Date

    enum CodingKeys: String, CodingKey {
        case title, description, address, capacity, until
        case placeName = "place_name"
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case timeZone = "time_zone"
        case hostID = "host_id"
        case repeats = "repeat"
    }
}
