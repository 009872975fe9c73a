import Foundation

/// A gym's fields after every rule was checked: what the repository writes.
struct ValidatedGym: Sendable {
    var name: String
    var localizedNames: [String: String]
    var address: String?
    var country: String?
    var latitude: Double?
    var longitude: Double?
    var timeZone: String
    var website: String?
    var boulderGrading: GymGrading
    var routeGrading: GymGrading
    var boulderLevels: [GymLevel]
    var routeLevels: [GymLevel]

    /// The gym as it stands, to apply an edit to.
    init(_ gym: Gym) {
        name = gym.name
        localizedNames = gym.localizedNames
        address = gym.address
        country = gym.country
        latitude = gym.latitude
        longitude = gym.longitude
        timeZone = gym.timeZone
        website = gym.website
        boulderGrading = gym.boulderGrading
        routeGrading = gym.routeGrading
        boulderLevels = gym.boulderLevels
        routeLevels = gym.routeLevels
    }

    /// A new gym from a draft that must name at least the gym and its zone.
    /// - Throws: `DomainError.invalidInput` naming the field.
    init(new draft: GymDraft) throws {
        guard let name = draft.name else { throw DomainError.invalid("name", "A gym needs a name") }
        guard let timeZone = draft.timeZone else { throw DomainError.invalid("time_zone", "A gym needs its IANA time zone, such as Asia/Seoul") }
        self.name = name
        localizedNames = [:]
        self.timeZone = timeZone
        boulderGrading = .scale(.v)
        routeGrading = .scale(.yds)
        boulderLevels = []
        routeLevels = []
        try apply(draft)
    }

    /// Applies the members the draft gives and checks the result.
    /// - Throws: `DomainError.invalidInput` naming the field.
    mutating func apply(_ draft: GymDraft) throws {
        if let name = draft.name { self.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let names = draft.localizedNames { localizedNames = names }
        if let address = draft.address { self.address = address }
        if let country = draft.country { self.country = country?.uppercased() }
        if let location = draft.location {
            latitude = location?.latitude
            longitude = location?.longitude
        }
        if let timeZone = draft.timeZone { self.timeZone = timeZone }
        if let website = draft.website { self.website = website }
        if let grading = draft.boulderGrading { boulderGrading = grading }
        if let grading = draft.routeGrading { routeGrading = grading }
        if let levels = draft.boulderLevels { boulderLevels = try Self.levels(levels, axis: .boulder) }
        if let levels = draft.routeLevels { routeLevels = try Self.levels(levels, axis: .route) }
        try check()
    }

    private func check() throws {
        try TextRule.gymName.check(name)
        for (language, localized) in localizedNames {
            guard Self.isLanguageTag(language) else {
                throw DomainError.invalid("names", "`\(language.prefix(20))` is not a language tag; use one such as ko, ja or en-GB")
            }
            try TextRule(field: "names.\(language)", noun: "A gym name", lengths: 1...100).check(localized)
        }
        try TextRule.gymAddress.check(address)
        try TextRule.gymWebsite.check(website)
        if let website, !(website.hasPrefix("https://") || website.hasPrefix("http://")) {
            throw DomainError.invalid("website", "A website is an http:// or https:// address")
        }
        if let country, !(country.count == 2 && country.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }) {
            throw DomainError.invalid("country", "A country is its two-letter ISO 3166-1 code, such as KR or JP (got `\(country.prefix(10))`)")
        }
        if let latitude, !(-90...90).contains(latitude) || !latitude.isFinite {
            throw DomainError.invalid("latitude", "A latitude is between -90 and 90 (got \(latitude))")
        }
        if let longitude, !(-180...180).contains(longitude) || !longitude.isFinite {
            throw DomainError.invalid("longitude", "A longitude is between -180 and 180 (got \(longitude))")
        }
        guard MeetupService.isTimeZoneName(timeZone) else {
            throw DomainError.invalid("time_zone", "`\(timeZone.prefix(64))` is not a time zone of the tz database; use a name such as Asia/Seoul")
        }
        for (axis, grading, levels) in [(GradeAxis.boulder, boulderGrading, boulderLevels), (.route, routeGrading, routeLevels)] {
            if grading == .circuit, levels.isEmpty {
                throw DomainError.invalid("\(axis.rawValue)_levels", "A gym that grades \(axis.rawValue)s by colour needs its circuit: give `\(axis.rawValue)_levels`, easiest first")
            }
        }
    }

    static func isLanguageTag(_ text: String) -> Bool {
        (2...12).contains(text.count) && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
            && text.unicodeScalars.first.map { CharacterSet.letters.contains($0) } == true
    }

    /// The levels in order, each range read from its grades.
    static func levels(_ levels: [NewGymLevel], axis: GradeAxis) throws -> [GymLevel] {
        let field = "\(axis.rawValue)_levels"
        guard levels.count <= 30 else { throw DomainError.invalid(field, "A circuit has at most 30 levels (got \(levels.count))") }
        var names = Set<String>()
        return try levels.enumerated().map { offset, level in
            let position = offset + 1
            try TextRule(field: "\(field)[\(position)].name", noun: "A level name", lengths: 1...40).check(level.name)
            guard names.insert(level.name.lowercased()).inserted else {
                throw DomainError.invalid("\(field)[\(position)].name", "Two levels are named `\(level.name)`; each level needs its own name")
            }
            guard level.scale.axis == axis else {
                throw DomainError.invalid("\(field)[\(position)].scale", "\(level.scale.rawValue) grades \(level.scale.axis.rawValue)s; a \(axis.rawValue) level takes one of: \(GradeScale.allCases.filter { $0.axis == axis }.map(\.rawValue).joined(separator: ", "))")
            }
            guard Self.isColour(level.colour) else {
                throw DomainError.invalid("\(field)[\(position)].colour", "A level's colour is #RRGGBB, such as #E53935 (got `\(level.colour.prefix(20))`)")
            }
            guard let lowest = GradeTable.range(of: level.lowest, in: level.scale) else {
                throw DomainError.invalid("\(field)[\(position)].lowest", "`\(level.lowest.prefix(20))` is not a grade of the \(level.scale.rawValue) scale")
            }
            var range = lowest
            if let highestText = level.highest {
                guard let highest = GradeTable.range(of: highestText, in: level.scale) else {
                    throw DomainError.invalid("\(field)[\(position)].highest", "`\(highestText.prefix(20))` is not a grade of the \(level.scale.rawValue) scale")
                }
                guard highest.highest >= lowest.lowest else {
                    throw DomainError.invalid("\(field)[\(position)].highest", "The level's highest grade \(highestText) is easier than its lowest, \(level.lowest)")
                }
                range = lowest.union(highest)
            }
            for (language, localized) in level.localizedNames {
                guard isLanguageTag(language) else {
                    throw DomainError.invalid("\(field)[\(position)].names", "`\(language.prefix(20))` is not a language tag; use one such as ko or ja")
                }
                try TextRule(field: "\(field)[\(position)].names.\(language)", noun: "A level name", lengths: 1...40).check(localized)
            }
            return GymLevel(position: position, colour: level.colour.uppercased(), name: level.name, localizedNames: level.localizedNames, range: range)
        }
    }

    static func isColour(_ text: String) -> Bool {
        text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}
