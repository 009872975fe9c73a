import BelayDomain
import BelayHTTP
import Foundation

/// `POST /v1/meetups`.
struct CreateMeetupRequest: Decodable {
    var title: String
    var description: String?
    /// Required unless `gymID` names a gym (then it defaults to the gym's name).
    var placeName: String?
    var address: String?
    var startsAt: Date
    var endsAt: Date
    /// Defaults to the club's zone, or the gym's.
    var timeZone: String?
    var capacity: Int
    /// Defaults to the caller (who must then be a host or admin).
    var hostID: Int64?
    /// Admins record a meetup that already happened.
    var recordPast: Bool?
    /// The gym it is at.
    var gymID: Int64?
    var latitude: Double?
    var longitude: Double?
    var discipline: MeetupDiscipline?
    var levelMin: String?
    var levelMax: String?
    var levelScale: GradeScale?
    var tags: [MeetupTag]?
    var visibility: MeetupVisibility?

    enum CodingKeys: String, CodingKey {
        case title, description, address, capacity, latitude, longitude, discipline, tags, visibility
        case levelMin = "level_min"
        case levelMax = "level_max"
        case levelScale = "level_scale"
        case gymID = "gym_id"
        case recordPast = "record_past"
        case placeName = "place_name"
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case timeZone = "time_zone"
        case hostID = "host_id"
    }
}

/// `PATCH /v1/meetups/{id}`: members left out stay as they are; `"address": null` removes it.
/// Every other member cannot be removed, so `null` for it is refused (422 naming it) rather
/// than read as "unchanged".
struct UpdateMeetupRequest: Decodable {
    var title: String?
    var description: String?
    var placeName: String?
    var address: String??
    var startsAt: Date?
    var endsAt: Date?
    var timeZone: String?
    var capacity: Int?
    var hostID: Int64?
    /// `.some(nil)`: the meetup's place is its own again.
    var gymID: Int64??
    /// Both or neither; `null` for both removes a location given by hand.
    var latitude: Double??
    var longitude: Double??
    var discipline: MeetupDiscipline??
    /// Both or neither; `null` for both makes the meetup open to every level.
    var levelMin: String??
    var levelMax: String??
    var levelScale: GradeScale?
    var tags: [MeetupTag]?
    var visibility: MeetupVisibility?

    enum CodingKeys: String, CodingKey {
        case title, description, address, capacity, latitude, longitude, discipline, tags, visibility
        case levelMin = "level_min"
        case levelMax = "level_max"
        case levelScale = "level_scale"
        case placeName = "place_name"
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case timeZone = "time_zone"
        case hostID = "host_id"
        case gymID = "gym_id"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeUnlessAbsent(String.self, forKey: .title)
        description = try container.decodeUnlessAbsent(String.self, forKey: .description)
        placeName = try container.decodeUnlessAbsent(String.self, forKey: .placeName)
        if container.contains(.address) {
            address = .some(try container.decodeNil(forKey: .address) ? nil : try container.decode(String.self, forKey: .address))
        } else {
            address = nil
        }
        startsAt = try container.decodeUnlessAbsent(Date.self, forKey: .startsAt)
        endsAt = try container.decodeUnlessAbsent(Date.self, forKey: .endsAt)
        timeZone = try container.decodeUnlessAbsent(String.self, forKey: .timeZone)
        capacity = try container.decodeUnlessAbsent(Int.self, forKey: .capacity)
        hostID = try container.decodeUnlessAbsent(Int64.self, forKey: .hostID)
        if container.contains(.gymID) {
            gymID = .some(try container.decodeNil(forKey: .gymID) ? nil : try container.decode(Int64.self, forKey: .gymID))
        }
        latitude = try container.decodeNullable(Double.self, forKey: .latitude)
        longitude = try container.decodeNullable(Double.self, forKey: .longitude)
        discipline = try container.decodeNullable(MeetupDiscipline.self, forKey: .discipline)
        levelMin = try container.decodeNullable(String.self, forKey: .levelMin)
        levelMax = try container.decodeNullable(String.self, forKey: .levelMax)
        levelScale = try container.decodeUnlessAbsent(GradeScale.self, forKey: .levelScale)
        tags = try container.decodeUnlessAbsent([MeetupTag].self, forKey: .tags)
        visibility = try container.decodeUnlessAbsent(MeetupVisibility.self, forKey: .visibility)
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, nil when the key is absent; unlike `decodeIfPresent`, a JSON
    /// `null` is refused (`valueNotFound`, answered 422 naming the member), for members
    /// whose absence means "unchanged" and that have no "none" to set.
    func decodeUnlessAbsent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        contains(key) ? try decode(type, forKey: key) : nil
    }
}

/// `POST /v1/meetups/{id}/check-in`: `{"code": "…"}` from the member, or
/// `{"user_id": …, "at": …}` from the host (`at` for a check-in made earlier offline).
struct CheckInRequestBody: Decodable {
    var code: String?
    var userID: Int64?
    var at: Date?

    enum CodingKeys: String, CodingKey {
        case code, at
        case userID = "user_id"
    }
}

/// `POST /v1/rewards/{id}/share-events`.
struct ShareEventRequest: Decodable {
    var target: String?
    var activityType: String?
    var completed: Bool
    var error: String?
    var clientEventID: String

    enum CodingKeys: String, CodingKey {
        case target, completed, error
        case activityType = "activity_type"
        case clientEventID = "client_event_id"
    }
}

extension KeyedDecodingContainer {
    /// Absent: nil (unchanged); `null`: `.some(nil)` (removed); else the value.
    func decodeNullable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?? {
        guard contains(key) else { return nil }
        return .some(try decodeNil(forKey: key) ? nil : try decode(T.self, forKey: key))
    }
}
