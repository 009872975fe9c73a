import BelayDomain
import Testing

/// `LAT,LON` as the API's `near=` and the CLI's `--near` and `--location` read it.
@Suite struct GeoPointTests {
    @Test(arguments: [
        ("37.4979,127.0276", 37.4979, 127.0276),
        (" 37.4979 ,\t127.0276 ", 37.4979, 127.0276),
        ("-33.8688,151.2093", -33.8688, 151.2093),
        ("90,-180", 90.0, -180.0),
        ("3.5e1,1.27e2", 35.0, 127.0),
    ])
    func readsTwoNumbersAroundOneComma(text: String, latitude: Double, longitude: Double) throws {
        let point = try GeoPoint(parsing: text, field: "near")
        #expect(point.latitude == latitude)
        #expect(point.longitude == longitude)
    }

    @Test(arguments: ["", ",", "37.4979", "37.4979,", ",127.0276", "1,2,3", "north,east", "37.4979;127.0276", "37 .4979,127", "37.4979,127.0276x",
                      "37.4979,\u{301}127.0276", "３７.５,１２７"])
    func refusesAnythingElseNamingTheField(text: String) {
        #expect {
            _ = try GeoPoint(parsing: text, field: "near")
        } throws: { error in
            guard let error = error as? DomainError else { return false }
            return error.reason == .invalidInput && error.field == "near" && error.message.contains("comma-separated")
        }
    }

    @Test(arguments: ["91,0", "-90.5,0", "0,180.01", "nan,0", "0,inf"])
    func refusesDegreesOutOfRange(text: String) {
        #expect {
            _ = try GeoPoint(parsing: text, field: "near")
        } throws: { error in
            (error as? DomainError)?.field == "near"
        }
    }
}
