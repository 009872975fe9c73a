import Foundation

/// A point on the earth in degrees, kept as millionths of a degree in the database (about
/// 11 cm, exact on both engines).
public struct GeoPoint: Sendable, Hashable {
    public let latitude: Double
    public let longitude: Double

    /// The mean earth radius in kilometres (IUGG).
    static let earthRadiusKilometres = 6_371.0088

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads `LAT,LON` in degrees (`37.4979,127.0276`).
    /// - Throws: `DomainError.invalid(field)` naming what was wrong and the form expected.
    public init(parsing text: String, field: String) throws {
        guard let (latitude, longitude) = Self.degrees(in: text) else {
            throw DomainError.invalid(field, "\(field) is a latitude and a longitude in degrees, comma-separated, such as 37.4979,127.0276 (got \"\(text)\")")
        }
        try self.init(checkingLatitude: latitude, longitude: longitude, field: field)
    }

    /// The two numbers of `LAT,LON`, each with spaces or tabs around it allowed; nil unless
    /// there are exactly two and both are numbers. Read over the UTF-8 bytes: every search
    /// near a point parses one, and splitting into an array of trimmed substrings cost more than
    /// the numbers' parse.
    private static func degrees(in text: String) -> (Double, Double)? {
        let bytes = text.utf8
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let afterComma = bytes.index(after: comma)
        guard !bytes[afterComma...].contains(UInt8(ascii: ",")) else { return nil }
        func number(_ range: Range<String.Index>) -> Double? {
            var lower = range.lowerBound, upper = range.upperBound
            func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            while lower < upper, isSpace(bytes[lower]) { lower = bytes.index(after: lower) }
            while lower < upper, isSpace(bytes[bytes.index(before: upper)]) { upper = bytes.index(before: upper) }
            return Double(text[lower..<upper])
        }
        guard let latitude = number(bytes.startIndex..<comma), let longitude = number(afterComma..<bytes.endIndex) else { return nil }
        return (latitude, longitude)
    }

    /// A point whose degrees are checked: latitude −90…90, longitude −180…180, both finite.
    /// - Throws: `DomainError.invalid(field)`.
    public init(checkingLatitude latitude: Double, longitude: Double, field: String) throws {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw DomainError.invalid(field, "The latitude must be between -90 and 90 degrees (got \(latitude))")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw DomainError.invalid(field, "The longitude must be between -180 and 180 degrees (got \(longitude))")
        }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Millionths of a degree, as stored.
    public var latitudeE6: Int64 { Int64((latitude * 1_000_000).rounded()) }
    public var longitudeE6: Int64 { Int64((longitude * 1_000_000).rounded()) }

    /// The point stored as millionths of a degree; nil when either is missing.
    public init?(latitudeE6: Int64?, longitudeE6: Int64?) {
        guard let latitudeE6, let longitudeE6 else { return nil }
        self.init(latitude: Double(latitudeE6) / 1_000_000, longitude: Double(longitudeE6) / 1_000_000)
    }

    /// The great-circle (haversine) distance to `other`, in kilometres.
    public func distanceKilometres(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians, dLon = (other.longitude - longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return Self.earthRadiusKilometres * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// A box in millionths of a degree that holds every point within `kilometres` (a little
    /// more: the search then keeps only those within the radius).
    func boundingBoxE6(kilometres: Double) -> (minLatitude: Int64, maxLatitude: Int64, minLongitude: Int64, maxLongitude: Int64) {
        let latitudeDegrees = kilometres / (Self.earthRadiusKilometres * Double.pi / 180)
        let shrink = max(cos(min(89.9, abs(latitude) + latitudeDegrees) * Double.pi / 180), 0.001)
        let longitudeDegrees = min(180, latitudeDegrees / shrink)
        let e6 = { (degrees: Double) in Int64((degrees * 1_000_000).rounded()) }
        return (max(-90_000_000, e6(latitude - latitudeDegrees)) - 1, min(90_000_000, e6(latitude + latitudeDegrees)) + 1,
                max(-180_000_000, e6(longitude - longitudeDegrees)) - 1, min(180_000_000, e6(longitude + longitudeDegrees)) + 1)
    }

    /// How much shorter a degree of longitude is than one of latitude here: the distance key
    /// of a search is (Δlatitude² + (Δlongitude·this)²) in millionths of a degree.
    var longitudeScale: Double { cos(latitude * Double.pi / 180) }
}
