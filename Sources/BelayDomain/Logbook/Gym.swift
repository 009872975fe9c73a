import Foundation

/// How a gym grades one axis: a standard scale, or its own colour circuit (`Gym.levels`).
public enum GymGrading: Sendable, Hashable {
    case scale(GradeScale)
    case circuit

    /// The stored and written form: a scale's name, or `circuit`.
    public var rawValue: String {
        switch self {
        case let .scale(scale): return scale.rawValue
        case .circuit: return "circuit"
        }
    }

    /// Reads `text` for `axis`; nil when it is neither `circuit` nor a scale of that axis.
    public init?(_ text: String, axis: GradeAxis) {
        if text == "circuit" { self = .circuit; return }
        guard let scale = GradeScale(rawValue: text), scale.axis == axis else { return nil }
        self = .scale(scale)
    }
}

/// One level of a gym's colour circuit: its colour, its name in each locale, and the range
/// of a standard grade it covers (빨강 = V4–V5).
public struct GymLevel: Sendable, Hashable {
    /// 1 for the easiest level.
    public let position: Int
    /// `#RRGGBB`.
    public let colour: String
    public let name: String
    /// The name in other locales, by language tag.
    public let localizedNames: [String: String]
    public let range: GradeRange
    /// The range its members' sends span by the grades they felt (the middle half of them),
    /// once at least `Problem.communityMinimumVotes` gave one: "this gym's green ≈ V2–V3".
    public var communityRange: GradeRange? = nil
    /// Sends at this level whose climbers gave the grade they felt.
    public var votes = 0

    public init(position: Int, colour: String, name: String, localizedNames: [String: String], range: GradeRange) {
        self.position = position
        self.colour = colour
        self.name = name
        self.localizedNames = localizedNames
        self.range = range
    }

    /// The level's name in `language` (a tag such as `ko` or `ko-KR`), else its own name.
    public func name(in language: String?) -> String {
        guard let language else { return name }
        return localizedNames[language] ?? localizedNames[String(language.prefix(2))] ?? name
    }
}

/// A climbing gym: where it is, and how it grades its boulders and its routes.
public struct Gym: Sendable, Hashable {
    public let id: Int64
    public let name: String
    /// The name in other locales, by language tag.
    public let localizedNames: [String: String]
    public let address: String?
    /// ISO 3166-1 alpha-2, upper case.
    public let country: String?
    public let latitude: Double?
    public let longitude: Double?
    /// IANA zone: the day of a tick at this gym is counted in it.
    public let timeZone: String
    public let website: String?
    public let boulderGrading: GymGrading
    public let routeGrading: GymGrading
    /// The colour circuit of each axis graded by one, easiest first.
    public let boulderLevels: [GymLevel]
    public let routeLevels: [GymLevel]
    public let createdAt: Date
    public let updatedAt: Date

    /// Where it is, when it gave its latitude and longitude.
    public var location: GeoPoint? {
        guard let latitude, let longitude else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// How `axis` is graded here.
    public func grading(_ axis: GradeAxis) -> GymGrading {
        axis == .boulder ? boulderGrading : routeGrading
    }

    /// The circuit of `axis` (empty when it is graded on a scale).
    public func levels(_ axis: GradeAxis) -> [GymLevel] {
        axis == .boulder ? boulderLevels : routeLevels
    }

    /// The gym with `levels` as its circuit of `axis`.
    func with(levels: [GymLevel], axis: GradeAxis) -> Gym {
        Gym(id: id, name: name, localizedNames: localizedNames, address: address, country: country, latitude: latitude, longitude: longitude,
            timeZone: timeZone, website: website, boulderGrading: boulderGrading, routeGrading: routeGrading,
            boulderLevels: axis == .boulder ? levels : boulderLevels, routeLevels: axis == .route ? levels : routeLevels,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    /// The gym's name in `language`, else its own.
    public func name(in language: String?) -> String {
        guard let language else { return name }
        return localizedNames[language] ?? localizedNames[String(language.prefix(2))] ?? name
    }
}

/// A colour level as given to create or edit a gym: its range is two grades of a scale of
/// the level's axis (`V4` to `V5`), or one.
public struct NewGymLevel: Sendable, Hashable {
    public var colour: String
    public var name: String
    public var localizedNames: [String: String]
    public var lowest: String
    public var highest: String?
    public var scale: GradeScale

    public init(colour: String, name: String, localizedNames: [String: String] = [:], lowest: String, highest: String? = nil, scale: GradeScale) {
        self.colour = colour
        self.name = name
        self.localizedNames = localizedNames
        self.lowest = lowest
        self.highest = highest
        self.scale = scale
    }
}

/// The fields of a new gym, or of a gym's edit (members left nil stay as they are; a given
/// circuit replaces the old one whole).
public struct GymDraft: Sendable {
    public var name: String?
    public var localizedNames: [String: String]?
    public var address: String??
    public var country: String??
    public var location: (latitude: Double, longitude: Double)??
    public var timeZone: String?
    public var website: String??
    public var boulderGrading: GymGrading?
    public var routeGrading: GymGrading?
    public var boulderLevels: [NewGymLevel]?
    public var routeLevels: [NewGymLevel]?

    public init(name: String? = nil, localizedNames: [String: String]? = nil, address: String?? = nil, country: String?? = nil,
                location: (latitude: Double, longitude: Double)?? = nil, timeZone: String? = nil, website: String?? = nil,
                boulderGrading: GymGrading? = nil, routeGrading: GymGrading? = nil,
                boulderLevels: [NewGymLevel]? = nil, routeLevels: [NewGymLevel]? = nil) {
        self.name = name
        self.localizedNames = localizedNames
        self.address = address
        self.country = country
        self.location = location
        self.timeZone = timeZone
        self.website = website
        self.boulderGrading = boulderGrading
        self.routeGrading = routeGrading
        self.boulderLevels = boulderLevels
        self.routeLevels = routeLevels
    }
}
