import Foundation
import Testing
import BelayTestSupport

/// The logbook at the shell: a gym with its circuit and a manager, a set file with a bad row
/// refused whole, then added once, and a member's logbook printed.
@Suite struct LogbookCommandTests {
    @Test func anOperatorAddsAGymItsSetAndReadsAMembersLogbook() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo")

        let missing = try workspace.run("gyms", "add", "--name", "The Climb")
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("--time-zone is required"))

        let badLevels = try workspace.run("gyms", "add", "--name", "The Climb", "--time-zone", "Asia/Seoul", "--boulders", "circuit",
                                          "--boulder-levels", "Red-E53935")
        #expect(badLevels.status == 64)
        #expect(badLevels.standardError.contains("NAME:#RRGGBB:LOW..HIGH"), "\(badLevels.standardError)")

        let added = try workspace.run("gyms", "add", "--name", "The Climb Gangnam", "--names", "ko=더클라임 강남점", "--time-zone", "Asia/Seoul",
                                      "--location", "37.4979,127.0276", "--boulders", "circuit",
                                      "--boulder-levels", "Yellow:#FFEB3B:VB..V0,Green:#4CAF50:V1..V2,Red:#E53935:V4..V5", "--json")
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("\"boulder_grading\":\"circuit\""))
        #expect(added.standardOutput.hasPrefix("{"), "one gym is one JSON object, as other add commands print: \(added.standardOutput)")
        #expect(added.standardError.contains("Added gym 1."))

        let listed = try workspace.run("gyms", "list", "--search", "강남")
        #expect(listed.status == 0 && listed.standardOutput.contains("The Climb Gangnam") && listed.standardOutput.contains("Red V4–V5"),
                "\(listed.standardOutput)")

        let manager = try workspace.run("gyms", "managers", "1", "--add", "jisoo")
        #expect(manager.status == 0 && manager.standardOutput.contains("jisoo"))
        #expect(manager.standardError.contains("jisoo manages gym 1."))

        let bad = workspace.directory.file("bad.csv"), good = workspace.directory.file("good.csv")
        try "wall,colour,grade,set_on\nCave,red,Red,2026-11-20\nCave,pink,Purple,2026-11-20\n".write(toFile: bad, atomically: true, encoding: .utf8)
        try "Cave,red,Red,2026-11-20,1\nSlab,blue,Green,2026-11-21,2\n".write(toFile: good, atomically: true, encoding: .utf8)
        let refused = try workspace.run("gyms", "import-set", "1", bad)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("Line 3:") && refused.standardError.contains("Purple"), "\(refused.standardError)")
        #expect(try workspace.run("gyms", "import-set", "1", good).standardOutput == "rows 2, added 2, already there 0\n")
        #expect(try workspace.run("gyms", "import-set", "1", good).standardOutput == "rows 2, added 0, already there 2\n")

        let empty = try workspace.run("logbook", "jisoo")
        #expect(empty.status == 0 && empty.standardError.contains("jisoo has logged no climbs"))
        #expect(try workspace.run("logbook", "jisoo", "--from", "yesterday").status == 64)
        #expect(try workspace.run("logbook", "nobody").status == 1)

        let ticks = workspace.directory.file("ticks.csv")
        try """
            Date,Route,Rating,Notes,URL,Pitches,Location,"Avg Stars","Your Stars",Style,"Lead Style","Route Type","Your Rating",Length,"Rating Code"
            2026-10-10,Slab Happy,5.10-,,https://mp.example/1,1,Korea > Seoraksan,2.8,3,Lead,Redpoint,Sport,,80,2500
            2026-10-11,The Pinch,V3-4,,https://mp.example/2,1,Korea > Bulam,3.1,4,Send,,Boulder,,10,20350

            """.write(toFile: ticks, atomically: true, encoding: .utf8)
        #expect(try workspace.run("logbook", "jisoo", "--dry-run").status == 64)
        let dry = try workspace.run("logbook", "jisoo", "--import", ticks, "--dry-run")
        #expect(dry.standardOutput == "format mountain_project, rows 2, would add 2, already there 0\n" && dry.standardError.contains("--dry-run"))
        #expect(try workspace.run("logbook", "jisoo", "--import", ticks).standardOutput == "format mountain_project, rows 2, added 2, already there 0\n")
        let shown = try workspace.run("logbook", "jisoo")
        #expect(shown.status == 0 && shown.standardOutput.contains("Slab Happy (Korea > Seoraksan)") && shown.standardOutput.contains("V3–V4"),
                "\(shown.standardOutput)")
        #expect(shown.standardError.contains("routes: hardest send 5.10a"), "\(shown.standardError)")
        let csv = try workspace.run("logbook", "jisoo", "--csv")
        #expect(csv.standardOutput.components(separatedBy: "\r\n").count == 4, "a header, two ticks and the end")
    }

    @Test func aSeededMonthDrawsItsPyramid() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo")
        let seeded = try workspace.run("dev", "seed-logbook", "jisoo", "--sessions", "12")
        #expect(seeded.status == 0 && seeded.standardOutput.hasPrefix("gyms 1,2,3, sessions 12, ticks "), "\(seeded.standardOutput)\(seeded.standardError)")
        let again = try workspace.run("dev", "seed-logbook", "jisoo", "--sessions", "12")
        #expect(again.standardOutput == "gyms 1,2,3, sessions 12, ticks 0\n", "the gyms are found again and no tick is logged twice")
        let picture = workspace.directory.file("pyramid.png")
        let recap = workspace.directory.file("recap.png")
        let shown = try workspace.run("logbook", "jisoo", "--pyramid", picture, "--recap", recap)
        #expect(PNGFile.dimensions(atPath: recap)?.height == 1920 && shown.standardError.contains("Drew the season recap (1080x1920)"))
        #expect(shown.status == 0 && shown.standardError.contains("Drew the grade pyramid (1080x1350)"), "\(shown.standardError)")
        let size = PNGFile.dimensions(atPath: picture)
        #expect(size?.width == 1080 && size?.height == 1350)
        #expect(shown.standardOutput.contains("Red") || shown.standardOutput.contains("Purple"), "the circuit's levels by name")
    }
}
