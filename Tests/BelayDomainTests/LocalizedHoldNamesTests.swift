@testable import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Hold names in the club's language from the catalogue's `names`, the English name otherwise.
@Suite struct LocalizedHoldNamesTests {
    static let gold = Hold(id: "jug-gold", name: "Gold Jug", type: "jug", color: "#D4A017", rarity: .epic, artworkPath: "holds/jug-gold.png",
                           milestoneOnly: true, retiredAt: nil)

    @Test func theCommittedCatalogueNamesEveryHoldInKoreanAndJapanese() throws {
        let names = try LocalizedHoldNames(assetsDirectory: BelayProcess.packageRoot.appendingPathComponent("Assets").path)
        #expect(names.name(of: Self.gold, locale: "ko_KR") == "골드 저그")
        #expect(names.name(of: Self.gold, locale: "ja_JP") == "ゴールドガバ")
        #expect(names.name(of: Self.gold, locale: "en_GB") == "Gold Jug")
        #expect(names.name(of: Self.gold, locale: "fr_FR") == "Gold Jug")
    }

    @Test func aScriptOrRegionEntryWinsOverTheLanguage() {
        let names = LocalizedHoldNames(names: ["jug-gold": ["zh": "金色把手", "zh-Hant": "金色把手點", "ko": " "]])
        #expect(names.name(of: Self.gold, locale: "zh_CN") == "金色把手")
        #expect(names.name(of: Self.gold, locale: "zh-Hant_TW") == "金色把手點")
        #expect(names.name(of: Self.gold, locale: "ko_KR") == "Gold Jug", "a blank name is no name")
    }
}
