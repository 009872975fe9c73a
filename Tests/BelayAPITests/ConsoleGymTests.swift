import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Gym managers in the console: a set file with a bad row is previewed with the row's error and
/// nothing written; fixed, it is previewed row by row and then written; others find no page.
@Suite(.serialized) struct ConsoleGymTests {
    @Test func aSetWithABadRowIsShownWithItsErrorAndNothingIsWrittenUntilItIsFixedAndSaved() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let created = fixture.post("/v1/gyms", as: fixture.admin, json: LogbookAPITests.gym)
        let gymID = try #require(created["id"]?.intValue)
        #expect(fixture.send(.put, "/v1/gyms/\(gymID)/managers/\(club.host.id)", token: fixture.admin.token).status == 200)
        let other = fixture.post("/v1/gyms", as: fixture.admin, json: LogbookAPITests.gym.replacingOccurrences(of: "The Climb Gangnam", with: "Other Gym"))
        let otherID = try #require(other["id"]?.intValue)

        let client = try club.signedInHost()
        let gyms = client.get("/console/gyms")
        #expect(gyms.text.contains("/console/gyms/\(gymID)\"") && !gyms.text.contains("/console/gyms/\(otherID)\""))
        #expect(client.get("/console/gyms/\(otherID)").status == 404)
        let page = client.get("/console/gyms/\(gymID)")
        #expect(page.status == 200)
        #expect(page.text.contains("<p class=\"sub\">Asia/Seoul · boulder: circuit · route: yds</p>"), "a gym without an address has no empty first fact")

        let bad = "wall,colour,grade,set_on\nCave,red,Red,2026-11-20\nCave,pink,Purple,2026-11-20\n"
        let refused = client.post("/console/gyms/\(gymID)/sets", [("csv", bad), ("step", "preview")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("<tr class=\"bad\"><td class=\"number\">3</td>"))
        #expect(refused.text.contains("Cave,pink,Purple,2026-11-20"), "the file is kept as sent")
        #expect(!refused.text.contains("value=\"write\""))
        // Writing a bad file is refused the same way.
        #expect(client.post("/console/gyms/\(gymID)/sets", [("csv", bad), ("step", "write")]).status == 422)
        #expect(try fixture.domain.problems.list(gymID: gymID, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.isEmpty)

        let good = "wall,colour,grade,set_on,name\nCave,red,Red,2026-11-20,1\nSlab,blue,초록,2026-11-21,2\n"
        let preview = client.post("/console/gyms/\(gymID)/sets", [("csv", good), ("step", "preview")])
        #expect(preview.status == 200)
        #expect(preview.text.contains("<td>Slab</td><td>blue</td><td>Green</td>"))
        #expect(preview.text.contains("value=\"write\""))
        #expect(try fixture.domain.problems.list(gymID: gymID, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.isEmpty,
                "a preview writes nothing")
        let written = client.post("/console/gyms/\(gymID)/sets", [("csv", good), ("step", "write")])
        #expect(written.status == 200)
        #expect(try fixture.domain.problems.list(gymID: gymID, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.count == 2)
        #expect(written.text.contains("<h3>Slab (1)</h3>"))

        #expect(client.post("/console/gyms/\(gymID)/retirements", [("wall", "Cave")]).status == 200)
        #expect(try fixture.domain.problems.list(gymID: gymID, on: nil, wall: "Cave", grade: nil, limit: 50, cursor: nil).items.isEmpty)
        #expect(client.post("/console/gyms/\(otherID)/sets", [("csv", good), ("step", "write")]).status == 404)
    }
}
