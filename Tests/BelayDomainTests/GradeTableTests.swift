import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// The grade table against the published conversion it is taken from (OpenBeta's sandbag,
/// `boulder.csv` and `routes.csv`, kept verbatim in Fixtures/sandbag): every score of every
/// scale, and the lenient readings of grades as other logbooks write them.
@Suite struct GradeTableTests {
    private static func published(_ file: String) throws -> [[String]] {
        let url = BelayProcess.packageRoot.appendingPathComponent("Tests/BelayDomainTests/Fixtures/sandbag/\(file)")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test(arguments: [("boulder.csv", 1, GradeScale.v), ("boulder.csv", 2, .font), ("routes.csv", 1, .yds), ("routes.csv", 2, .french),
                      ("routes.csv", 3, .uiaa), ("routes.csv", 4, .ewbank)])
    func everyScoreOfThePublishedTableNamesTheSameGrade(file: String, column: Int, scale: GradeScale) throws {
        let rows = try Self.published(file)
        #expect(rows.count == 108)
        for row in rows {
            let score = try #require(Int(row[0]))
            #expect(GradeTable.name(of: score, in: scale) == row[column], "score \(score) in \(scale)")
            let range = try #require(GradeTable.range(of: row[column], in: scale), "\(row[column]) in \(scale)")
            #expect(range.contains(score), "\(row[column]) spans \(range.lowest)…\(range.highest), not \(score)")
        }
    }

    @Test func gradesConvertThroughTheirScores() throws {
        let v5 = try #require(GradeTable.range(of: "V5", in: .v))
        #expect(GradeTable.name(of: v5.lowest, in: .font) == "6c")
        let french = try #require(GradeTable.range(of: "7a", in: .french))
        #expect(GradeTable.name(of: french.lowest, in: .yds) == "5.11c")
        #expect(v5.axis == .boulder && french.axis == .route, "boulders and routes are separate axes")
    }

    @Test func gradesAsOtherLogbooksWriteThemAreRead() throws {
        let slash = try #require(GradeTable.range(of: "V3-4", in: .v))
        #expect(GradeTable.name(of: slash, in: .v) == "V3–V4")
        #expect(try #require(GradeTable.range(of: "V3/4", in: .v)) == slash)
        let plain = try #require(GradeTable.range(of: "5.10", in: .yds))
        #expect(GradeTable.name(of: plain, in: .yds) == "5.10a–5.10d")
        let minus = try #require(GradeTable.range(of: "5.10-", in: .yds))
        #expect(GradeTable.name(of: minus, in: .yds) == "5.10a–5.10b")
        #expect(try #require(GradeTable.range(of: "5.10a/b", in: .yds)) == minus)
        #expect(GradeTable.range(of: " v5 ", in: .v) == GradeTable.range(of: "V5", in: .v))
        #expect(GradeTable.range(of: "V 5", in: .v) == GradeTable.range(of: "V5", in: .v), "spaces inside a grade as typed")
        #expect(GradeTable.range(of: "\t5.10 a\u{00A0}", in: .yds) == GradeTable.range(of: "5.10a", in: .yds), "tabs and no-break spaces at the ends")
        #expect(GradeTable.range(of: " \t ", in: .v) == nil)
        #expect(GradeTable.range(of: "V99", in: .v) == nil)
        #expect(GradeTable.range(of: "6c", in: .v) == nil, "a Font grade is not a V grade")
    }

    @Test func bandsFollowTheSource() {
        #expect(GradeTable.band(of: 0, on: .boulder) == .beginner)
        #expect(GradeTable.band(of: 50, on: .boulder) == .intermediate)
        #expect(GradeTable.band(of: 60, on: .boulder) == .advanced)
        #expect(GradeTable.band(of: 72, on: .boulder) == .expert)
        #expect(GradeTable.band(of: 53, on: .route) == .beginner)
        #expect(GradeTable.band(of: 54, on: .route) == .intermediate)
        #expect(GradeTable.band(of: 68, on: .route) == .advanced)
        #expect(GradeTable.band(of: 83, on: .route) == .expert)
    }
}
