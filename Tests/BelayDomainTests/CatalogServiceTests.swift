@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct CatalogServiceTests {
    let fixture: DomainFixture
    let assets: String

    init() throws {
        fixture = try DomainFixture(importCatalog: false)
        assets = fixture.directory.file("assets")
    }

    var catalog: CatalogService { fixture.domain.catalog }

    @Test func importsHoldsAndBackgroundsAndReimportingChangesNothing() throws {
        try DomainFixture.writeCatalog(in: assets)
        let first = try catalog.importCatalog(assetsDirectory: assets)
        #expect(first.holdsAdded == DomainFixture.fixtureHolds.count)
        #expect(first.backgroundsAdded == 3)
        let holds = try catalog.holds()
        #expect(holds.map(\.id) == DomainFixture.fixtureHolds.map(\.id).sorted())
        let gold = try catalog.hold(id: "jug-gold")
        #expect(gold.milestoneOnly)
        #expect(gold.rarity == .epic)
        #expect(gold.artworkPath == "holds/jug-gold.png")
        #expect(try catalog.backgrounds().first?.filePath.hasPrefix("backgrounds/") == true)

        let again = try catalog.importCatalog(assetsDirectory: assets)
        #expect(again == CatalogImportReport(holdsUnchanged: DomainFixture.fixtureHolds.count, backgroundsUnchanged: 3))
    }

    @Test func reimportUpdatesAndRetiresButNeverDeletesAnAwardedHold() throws {
        try DomainFixture.writeCatalog(in: assets)
        try catalog.importCatalog(assetsDirectory: assets)
        let meetup = try fixture.meetup()
        fixture.clock.advance(by: 3_600)
        let reward = try #require(try fixture.checkedIn(try fixture.member(), at: meetup).reward)
        #expect(reward.hold.id == "jug-gold")

        let kept = DomainFixture.fixtureHolds.filter { $0.id != "jug-gold" && $0.id != "jug-azure" }
        try DomainFixture.writeCatalog(in: assets, holds: kept, nameSuffix: " II")
        let report = try catalog.importCatalog(assetsDirectory: assets)
        #expect(report.holdsRetired == 2)
        #expect(report.holdsUpdated == kept.count)
        #expect(report.holdsAdded == 0)
        #expect(try catalog.holds().map(\.id).contains("jug-gold") == false)
        #expect(try catalog.hold(id: "jug-gold").isRetired)
        #expect(try catalog.hold(id: "jug-crimson").name == "Jug-Crimson II")
        let stillThere = try fixture.domain.rewards.reward(id: reward.id)
        #expect(stillThere.hold.id == "jug-gold")

        // A retired milestone hold is no longer given: the next member's first check-in falls back.
        let next = try #require(try fixture.checkedIn(try fixture.member(), at: meetup).reward)
        #expect(next.hold.id != "jug-gold")
        #expect(next.milestone == nil)

        // Listing it again brings it back.
        try DomainFixture.writeCatalog(in: assets)
        let restored = try catalog.importCatalog(assetsDirectory: assets)
        #expect(restored.holdsUpdated >= 2)
        #expect(try !catalog.hold(id: "jug-gold").isRetired)
    }

    @Test func anInvalidCatalogueIsRefusedAndNothingIsWritten() throws {
        try DomainFixture.writeCatalog(in: assets)
        let holdsFile = assets + "/holds/catalog.json"
        let good = try String(contentsOfFile: holdsFile, encoding: .utf8)
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: "\"rarity\":\"rare\"", with: "\"rarity\":\"legendary\""), "legendary"),
            (good.replacingOccurrences(of: "\"color\":\"#C8102E\"", with: "\"color\":\"red\""), "is not #RRGGBB"),
            (good.replacingOccurrences(of: "\"artwork\":\"jug-gold.png\"", with: "\"artwork\":\"../../etc/passwd\""), "is not a path inside holds/"),
            (good.replacingOccurrences(of: "\"artwork\":\"jug-gold.png\"", with: "\"artwork\":\"missing.png\""), "does not exist"),
            (good.replacingOccurrences(of: "\"version\":1", with: "\"version\":2"), "version 2"),
            (good.replacingOccurrences(of: "\"id\":\"jug-azure\"", with: "\"id\":\"jug-crimson\""), "twice"),
            (good.replacingOccurrences(of: "\"name\":", with: "\"title\":"), "misses the key \"name\""),
            ("{\"version\":1,\"holds\":[]}", "lists no holds"),
            ("not json", "is not valid JSON"),
        ]
        for (contents, expected) in cases {
            try contents.write(toFile: holdsFile, atomically: true, encoding: .utf8)
            let error = try #require(throws: DomainError.self) { try catalog.importCatalog(assetsDirectory: assets) }
            #expect(error.reason == .invalidCatalog)
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(error.message.contains(holdsFile))
        }
        #expect(try catalog.holds(includeRetired: true).isEmpty)
        #expect(refusal { try catalog.importCatalog(assetsDirectory: fixture.directory.file("nowhere")) } == .invalidCatalog)
    }

    @Test func theShippedCatalogueImports() throws {
        let shipped = BelayProcess.packageRoot.appendingPathComponent("Assets").path
        let report = try catalog.importCatalog(assetsDirectory: shipped)
        #expect(report.holdsAdded > 5)
        #expect(report.backgroundsAdded > 0)
        for milestone in BuiltInSettings.domain().rewards.milestones.values {
            #expect(try catalog.hold(id: milestone).milestoneOnly, "milestone hold \(milestone) is in the shipped catalogue")
        }
    }
}
