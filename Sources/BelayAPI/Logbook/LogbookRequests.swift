import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

/// A colour level in a gym's body.
struct GymLevelRequest: Decodable {
    var colour: String
    var name: String
    var names: [String: String]?
    var lowest: String
    var highest: String?
    var scale: GradeScale

    var level: NewGymLevel {
        NewGymLevel(colour: colour, name: name, localizedNames: names ?? [:], lowest: lowest, highest: highest, scale: scale)
    }
}

/// `{"latitude": …, "longitude": …}`.
struct LocationRequest: Decodable {
    var latitude: Double
    var longitude: Double
}

/// `POST /v1/gyms` and `PATCH /v1/gyms/{id}`: on an edit, members left out stay as they are
/// and `null` removes the optional ones (`address`, `country`, `location`, `website`).
struct GymRequest: Decodable {
    var draft = GymDraft()

    enum CodingKeys: String, CodingKey {
        case name, names, address, country, location, website
        case timeZone = "time_zone"
        case boulderGrading = "boulder_grading"
        case routeGrading = "route_grading"
        case boulderLevels = "boulder_levels"
        case routeLevels = "route_levels"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func removable(_ key: CodingKeys) throws -> String?? {
            guard container.contains(key) else { return nil }
            return .some(try container.decodeNil(forKey: key) ? nil : try container.decode(String.self, forKey: key))
        }
        draft.name = try container.decodeUnlessAbsent(String.self, forKey: .name)
        draft.localizedNames = try container.decodeUnlessAbsent([String: String].self, forKey: .names)
        draft.address = try removable(.address)
        draft.country = try removable(.country)
        draft.website = try removable(.website)
        if container.contains(.location) {
            draft.location = .some(try container.decodeNil(forKey: .location)
                ? nil : try container.decode(LocationRequest.self, forKey: .location).pair)
        }
        draft.timeZone = try container.decodeUnlessAbsent(String.self, forKey: .timeZone)
        if let text = try container.decodeUnlessAbsent(String.self, forKey: .boulderGrading) {
            guard let grading = GymGrading(text, axis: .boulder) else {
                throw DecodingError.dataCorruptedError(forKey: .boulderGrading, in: container, debugDescription: "Boulders are graded by v, font or circuit (got `\(text.prefix(20))`)")
            }
            draft.boulderGrading = grading
        }
        if let text = try container.decodeUnlessAbsent(String.self, forKey: .routeGrading) {
            guard let grading = GymGrading(text, axis: .route) else {
                throw DecodingError.dataCorruptedError(forKey: .routeGrading, in: container, debugDescription: "Routes are graded by yds, french, uiaa, ewbank or circuit (got `\(text.prefix(20))`)")
            }
            draft.routeGrading = grading
        }
        draft.boulderLevels = try container.decodeUnlessAbsent([GymLevelRequest].self, forKey: .boulderLevels)?.map(\.level)
        draft.routeLevels = try container.decodeUnlessAbsent([GymLevelRequest].self, forKey: .routeLevels)?.map(\.level)
    }
}

extension LocationRequest {
    var pair: (latitude: Double, longitude: Double) { (latitude, longitude) }
}

/// `POST /v1/gyms/{id}/problems`.
struct ProblemRequest: Decodable {
    var wall: String
    var discipline: Discipline?
    var holdColour: String
    var grade: String
    var name: String?
    var setter: String?
    var setOn: String
    var expectedRemovalOn: String?

    enum CodingKeys: String, CodingKey {
        case wall, discipline, grade, name, setter
        case holdColour = "hold_colour"
        case setOn = "set_on"
        case expectedRemovalOn = "expected_removal_on"
    }

    var problem: NewProblem {
        NewProblem(wall: wall, discipline: discipline ?? .boulder, holdColour: holdColour, grade: grade, name: name, setter: setter,
                   setOn: setOn, expectedRemovalOn: expectedRemovalOn)
    }
}

/// `POST /v1/gyms/{id}/problem-sets`.
struct ProblemSetRequest: Decodable {
    var csv: String
    var discipline: Discipline?
    var expectedRemovalOn: String?
    var dryRun: Bool?

    enum CodingKeys: String, CodingKey {
        case csv, discipline
        case expectedRemovalOn = "expected_removal_on"
        case dryRun = "dry_run"
    }
}

/// `POST /v1/me/logbook/imports`.
struct TickImportRequest: Decodable {
    var csv: String
    var dryRun: Bool?

    enum CodingKeys: String, CodingKey {
        case csv
        case dryRun = "dry_run"
    }
}

/// `POST /v1/gyms/{id}/retirements`.
struct RetireWallRequest: Decodable {
    var wall: String
    var on: String?
}

/// One tick as the app sends it.
struct TickRequest: Decodable {
    var clientTickID: String
    var problemID: Int64?
    var gymID: Int64?
    var level: String?
    var discipline: Discipline?
    var grade: String?
    var gradeScale: GradeScale?
    var routeName: String?
    var crag: String?
    var style: TickStyle
    var attempts: Int?
    var climbedAt: Date?
    var note: String?
    var stars: Int?
    var feltGrade: String?
    var visibility: TickVisibility?

    enum CodingKeys: String, CodingKey {
        case level, discipline, grade, crag, style, attempts, note, stars, visibility
        case clientTickID = "client_tick_id"
        case problemID = "problem_id"
        case gymID = "gym_id"
        case gradeScale = "grade_scale"
        case routeName = "route_name"
        case climbedAt = "climbed_at"
        case feltGrade = "felt_grade"
    }

    var tick: NewTick {
        NewTick(clientTickID: clientTickID, problemID: problemID, gymID: gymID, level: level, discipline: discipline, grade: grade,
                gradeScale: gradeScale, routeName: routeName, crag: crag, style: style, attempts: attempts, climbedAt: climbedAt,
                note: note, stars: stars, feltGrade: feltGrade, visibility: visibility)
    }
}

/// `POST /v1/me/ticks:batch`.
struct TickBatchRequest: Decodable {
    var ticks: [TickRequest]
}

/// `PATCH /v1/me/ticks/{id}`: members left out stay; `null` removes `note`, `stars`, `felt_grade`.
struct UpdateTickRequest: Decodable {
    var style: TickStyle?
    var attempts: Int?
    var note: String??
    var stars: Int??
    var feltGrade: String??
    var visibility: TickVisibility?

    enum CodingKeys: String, CodingKey {
        case style, attempts, note, stars, visibility
        case feltGrade = "felt_grade"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        style = try container.decodeUnlessAbsent(TickStyle.self, forKey: .style)
        attempts = try container.decodeUnlessAbsent(Int.self, forKey: .attempts)
        visibility = try container.decodeUnlessAbsent(TickVisibility.self, forKey: .visibility)
        if container.contains(.note) { note = .some(try container.decodeNil(forKey: .note) ? nil : try container.decode(String.self, forKey: .note)) }
        if container.contains(.stars) { stars = .some(try container.decodeNil(forKey: .stars) ? nil : try container.decode(Int.self, forKey: .stars)) }
        if container.contains(.feltGrade) {
            feltGrade = .some(try container.decodeNil(forKey: .feltGrade) ? nil : try container.decode(String.self, forKey: .feltGrade))
        }
    }
}

/// `PUT /v1/me/logbook/preferences`.
struct LogbookPreferencesRequest: Decodable {
    var boulderScale: GradeScale
    var routeScale: GradeScale
    var defaultVisibility: TickVisibility
    /// Left out: as it was.
    var inRankings: Bool?

    enum CodingKeys: String, CodingKey {
        case boulderScale = "boulder_scale"
        case routeScale = "route_scale"
        case defaultVisibility = "default_visibility"
        case inRankings = "in_rankings"
    }
}
