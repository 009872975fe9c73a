import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let logbookSchemas: [String: JSONValue] = {
        let grade = Schema.object([
            "text": Schema.string("The grade as given: a scale's grade, or a colour level's name."),
            "scale": Schema.nullable(Schema.enumeration(GradeScale.allCases.map(\.rawValue))),
            "colour": Schema.nullable(Schema.color),
            "axis": Schema.enumeration(GradeAxis.allCases.map(\.rawValue)),
            "display": Schema.string("The grade in the caller's scale for its axis (`6c`), or a range (`V4–V5`)."),
            "display_scale": Schema.enumeration(GradeScale.allCases.map(\.rawValue)),
            "band": Schema.enumeration(GradeBand.allCases.map(\.rawValue)),
            "score_min": Schema.integer("The lowest score of the grade on its axis (0–107, after OpenBeta's sandbag tables)."),
            "score_max": Schema.integer,
        ])
        let names = Schema.stringMap("Names by language tag.")
        let level = Schema.object(["position": Schema.integer, "colour": Schema.color, "name": Schema.string, "names": names, "grade": Schema.ref("Grade"),
                                   "community_grade": Schema.nullable(Schema.ref("Grade")),
                                   "community_votes": Schema.integer("Sends at this level whose climbers gave the grade they felt; `community_grade` is the middle half of those grades once there are 3.")])
        let levelRequest = Schema.object([
            "colour": Schema.color, "name": Schema.text(.levelName), "names": names,
            "lowest": Schema.string("The easiest grade the level covers, in `scale`."),
            "highest": Schema.string("The hardest; leave out for one grade."),
            "scale": Schema.enumeration(GradeScale.allCases.map(\.rawValue)),
        ], optional: ["names", "highest"])
        let location = Schema.object(["latitude": ["type": "number", "minimum": -90, "maximum": 90], "longitude": ["type": "number", "minimum": -180, "maximum": 180]])
        let day: JSONValue = ["type": "string", "format": "date"]
        let website: JSONValue = ["type": "string", "format": "uri", "pattern": "^https?://[^\\s\\u0000-\\u001F\\u007F-\\u009F]+$", "maxLength": 500]
        let gymFields: [(String, JSONValue)] = [
            ("name", Schema.text(.gymName, "Required to add a gym.")), ("names", names), ("address", Schema.nullable(Schema.text(.gymAddress))),
            ("country", Schema.nullable(["type": "string", "pattern": "^[A-Za-z]{2}$"])), ("location", Schema.nullable(location)),
            ("time_zone", Schema.timeZone("The gym's zone, such as Asia/Seoul: ticks' days are counted in it; required to add a gym.")), ("website", Schema.nullable(website)),
            ("boulder_grading", Schema.enumeration(["v", "font", "circuit"])), ("route_grading", Schema.enumeration(["yds", "french", "uiaa", "ewbank", "circuit"])),
            ("boulder_levels", ["type": "array", "items": levelRequest, "description": "At most 30 levels, easiest first; needed when boulders are graded by `circuit`."]),
            ("route_levels", ["type": "array", "items": levelRequest, "description": "At most 30 levels, easiest first; needed when routes are graded by `circuit`."]),
        ]
        let tick = Schema.object(pairs: [
            ("id", Schema.integer), ("user_id", Schema.integer), ("client_tick_id", Schema.string), ("kind", Schema.enumeration(TickKind.allCases.map(\.rawValue))),
            ("problem_id", Schema.nullable(Schema.integer)), ("gym_id", Schema.nullable(Schema.integer)), ("meetup_id", Schema.nullable(Schema.integer)),
            ("discipline", Schema.enumeration(Discipline.allCases.map(\.rawValue))), ("grade", Schema.ref("Grade")),
            ("hold_colour", Schema.nullable(Schema.string)), ("route_name", Schema.nullable(Schema.string)), ("crag", Schema.nullable(Schema.string)),
            ("style", Schema.enumeration(TickStyle.allCases.map(\.rawValue))), ("attempts", Schema.integer),
            ("climbed_at", Schema.dateTime), ("climbed_on", day), ("note", Schema.nullable(Schema.string)), ("stars", Schema.nullable(Schema.integer)),
            ("felt_grade", Schema.nullable(Schema.string)), ("visibility", Schema.enumeration(TickVisibility.allCases.map(\.rawValue))),
            ("created_at", Schema.dateTime), ("updated_at", Schema.dateTime),
        ])
        return [
            "Grade": grade,
            "GymLevel": level,
            "Gym": Schema.object(pairs: [
                ("id", Schema.integer), ("name", Schema.string), ("names", names), ("address", Schema.nullable(Schema.string)),
                ("country", Schema.nullable(Schema.string)), ("location", Schema.nullable(location)), ("distance_km", ["type": "number"]),
                ("time_zone", Schema.string("The gym's IANA zone: ticks' days are counted in it.")), ("website", Schema.nullable(Schema.string)),
                ("boulder_grading", Schema.enumeration(["v", "font", "circuit"])), ("route_grading", Schema.enumeration(["yds", "french", "uiaa", "ewbank", "circuit"])),
                ("boulder_levels", Schema.array(of: Schema.ref("GymLevel"))), ("route_levels", Schema.array(of: Schema.ref("GymLevel"))),
                ("created_at", Schema.dateTime), ("updated_at", Schema.dateTime),
            ], optional: ["distance_km"]),
            "GymList": Schema.list(of: "Gym"),
            "GymCreateRequest": Schema.object(pairs: gymFields, optional: Set(gymFields.map(\.0)).subtracting(["name", "time_zone"])),
            "GymUpdateRequest": Schema.object(pairs: gymFields, optional: Set(gymFields.map(\.0))),
            "GymProblem": Schema.object(pairs: [
                ("id", Schema.integer), ("gym_id", Schema.integer), ("wall", Schema.string), ("discipline", Schema.enumeration(Discipline.allCases.map(\.rawValue))),
                ("hold_colour", Schema.string), ("grade", Schema.ref("Grade")), ("name", Schema.nullable(Schema.string)), ("setter", Schema.nullable(Schema.string)),
                ("set_on", day), ("expected_removal_on", Schema.nullable(day)), ("removed_on", Schema.nullable(day)),
                ("community_grade", Schema.nullable(Schema.ref("Grade"))),
                ("votes", Schema.integer("Ticks that gave the grade their climber felt; `community_grade` is the most voted of them once there are 3 (a tie goes to the lower).")),
            ]),
            "GymProblemList": Schema.list(of: "GymProblem"),
            "GymProblemRequest": Schema.object(pairs: [
                ("wall", Schema.text(.problemWall)), ("discipline", Schema.enumeration(Discipline.allCases.map(\.rawValue))), ("hold_colour", Schema.text(.problemHoldColour)),
                ("grade", Schema.string("A grade of the gym's scale for the discipline, or a level of its circuit.")), ("name", Schema.text(.problemName)),
                ("setter", Schema.text(.problemSetter)), ("set_on", day), ("expected_removal_on", day),
            ], optional: ["discipline", "name", "setter", "expected_removal_on"]),
            "ProblemSetRequest": Schema.object([
                "csv": Schema.string("The set file: `wall, colour, grade, set_on[, name, setter]` a row."),
                "discipline": Schema.enumeration(Discipline.allCases.map(\.rawValue)), "expected_removal_on": day, "dry_run": Schema.boolean,
            ], optional: ["discipline", "expected_removal_on", "dry_run"]),
            "ProblemSetOutcome": Schema.object(["rows": Schema.integer, "added": Schema.integer, "unchanged": Schema.integer, "dry_run": Schema.boolean]),
            "TickImportRequest": Schema.object(["csv": Schema.string("The exported file's text."), "dry_run": Schema.boolean], optional: ["dry_run"]),
            "TickImportOutcome": Schema.object([
                "format": Schema.enumeration(["thecrag", "mountain_project"]), "rows": Schema.integer, "added": Schema.integer,
                "unchanged": Schema.integer, "dry_run": Schema.boolean,
            ]),
            "RetireWallRequest": Schema.object(["wall": Schema.text(.problemWall), "on": day], optional: ["on"]),
            "Retirement": Schema.object(["wall": Schema.string, "retired": Schema.integer]),
            "Tick": tick,
            "TickList": Schema.list(of: "Tick"),
            "TickRequest": Schema.object(pairs: [
                ("client_tick_id", Schema.text(.clientTickID, "The app's own id of the tick: the same id is logged once.")),
                ("problem_id", Schema.id()), ("gym_id", Schema.id()), ("level", Schema.string("A level of the gym's circuit: name, position or colour.")),
                ("discipline", Schema.enumeration(Discipline.allCases.map(\.rawValue))), ("grade", Schema.string), ("grade_scale", Schema.enumeration(GradeScale.allCases.map(\.rawValue))),
                ("route_name", Schema.text(.tickRouteName)), ("crag", Schema.text(.tickCrag)), ("style", Schema.enumeration(TickStyle.allCases.map(\.rawValue))),
                ("attempts", ["type": "integer", "minimum": 1, "maximum": 999]), ("climbed_at", Schema.dateTime), ("note", Schema.text(.tickNote)),
                ("stars", ["type": "integer", "minimum": 1, "maximum": 5]), ("felt_grade", Schema.string),
                ("visibility", Schema.enumeration(TickVisibility.allCases.map(\.rawValue))),
            ], optional: ["problem_id", "gym_id", "level", "discipline", "grade", "grade_scale", "route_name", "crag", "attempts", "climbed_at", "note", "stars", "felt_grade", "visibility"]),
            "TickBatchRequest": Schema.object(["ticks": ["type": "array", "items": Schema.ref("TickRequest"), "description": "1 to 200 ticks."]]),
            "TickBatchResult": Schema.object(["results": Schema.array(of: Schema.object([
                "client_tick_id": Schema.string, "status": Schema.enumeration(["created", "duplicate", "refused"]), "tick": Schema.ref("Tick"),
                "error": Schema.object(["reason": Schema.string, "field": Schema.nullable(Schema.string), "message": Schema.string]),
            ], optional: ["tick", "error"]))]),
            "UpdateTickRequest": Schema.object(pairs: [
                ("style", Schema.enumeration(TickStyle.allCases.map(\.rawValue))), ("attempts", ["type": "integer", "minimum": 1, "maximum": 999]),
                ("note", Schema.nullable(Schema.text(.tickNote))), ("stars", Schema.nullable(["type": "integer", "minimum": 1, "maximum": 5])),
                ("felt_grade", Schema.nullable(Schema.string)), ("visibility", Schema.enumeration(TickVisibility.allCases.map(\.rawValue))),
            ], optional: ["style", "attempts", "note", "stars", "felt_grade", "visibility"]),
            "LogbookPreferences": Schema.object([
                "boulder_scale": Schema.enumeration(["v", "font"]), "route_scale": Schema.enumeration(["yds", "french"]),
                "default_visibility": Schema.enumeration(TickVisibility.allCases.map(\.rawValue)),
                "in_rankings": Schema.boolean,
            ]),
            "LogbookPreferencesRequest": Schema.object([
                "boulder_scale": Schema.enumeration(["v", "font"]), "route_scale": Schema.enumeration(["yds", "french"]),
                "default_visibility": Schema.enumeration(TickVisibility.allCases.map(\.rawValue)),
                "in_rankings": ["type": "boolean", "description": "Be listed in gym rankings; left out, as it was (off until chosen)."],
            ], optional: ["in_rankings"]),
            "GymRanking": Schema.object([
                "gym_id": Schema.integer, "best": Schema.integer, "from": day,
                "items": Schema.array(of: Schema.object(pairs: [
                    ("rank", Schema.integer), ("user_id", Schema.integer), ("handle", Schema.string), ("display_name", Schema.string),
                    ("points", Schema.integer), ("sends", Schema.integer), ("hardest", Schema.nullable(Schema.ref("Grade"))), ("reached_at", Schema.dateTime),
                ])),
            ]),
            "LogbookSummary": Schema.object(pairs: [
                ("from", Schema.nullable(day)), ("to", day), ("sessions_per_week", ["type": "number"]),
                ("sessions", Schema.array(of: Schema.object([
                    "day": day, "gym_id": Schema.nullable(Schema.integer), "crag": Schema.nullable(Schema.string), "meetup_id": Schema.nullable(Schema.integer),
                    "sends": Schema.integer, "flashes": Schema.integer, "attempts": Schema.integer, "hardest": Schema.array(of: Schema.ref("Grade")),
                ]))),
                ("axes", Schema.array(of: Schema.object([
                    "axis": Schema.enumeration(GradeAxis.allCases.map(\.rawValue)), "scale": Schema.enumeration(GradeScale.allCases.map(\.rawValue)),
                    "pyramid": Schema.array(of: Schema.object(["grade": Schema.ref("Grade"), "sends": Schema.integer, "flashes": Schema.integer])),
                    "hardest_send": Schema.nullable(Schema.ref("Tick")), "hardest_flash": Schema.nullable(Schema.ref("Tick")),
                ]))),
                ("personal_bests", Schema.array(of: Schema.object([
                    "axis": Schema.enumeration(GradeAxis.allCases.map(\.rawValue)), "kind": Schema.enumeration(["send", "flash"]),
                    "grade": Schema.ref("Grade"), "day": day, "tick_id": Schema.integer,
                ]))),
            ]),
        ]
    }()
}

/// Gyms, problems, ticks and logbooks.
extension Operations {
    private static func ok(_ description: String, _ schema: String) -> Answer { Answer(status: 200, description: description, schema: Schema.ref(schema)) }
    private static let day: JSONValue = ["type": "string", "format": "date", "description": "A day, YYYY-MM-DD."]
    private static let logbookFilters: [JSONValue] = [
        OpenAPIOperation.query("gym_id", Schema.id(), "Only ticks at this gym."),
        OpenAPIOperation.query("meetup_id", Schema.id(), "Only ticks climbed at this meetup."),
        OpenAPIOperation.query("discipline", Schema.enumeration(Discipline.allCases.map(\.rawValue)), "Only this discipline."),
        OpenAPIOperation.query("style", Schema.enumeration(TickStyle.allCases.map(\.rawValue)), "Only this style."),
        OpenAPIOperation.query("grade_min", Schema.string, "Only ticks at least this hard: a grade of any scale (`V4`, `6b+`, `5.11a`); its axis picks boulders or routes."),
        OpenAPIOperation.query("grade_max", Schema.string, "Only ticks at most this hard, a grade of the same axis as `grade_min`."),
        OpenAPIOperation.query("from", day, "Only ticks climbed on or after this day (in the gym's zone)."),
        OpenAPIOperation.query("to", day, "Only ticks climbed on or before this day."),
        OpenAPIOperation.limit(50, 200), OpenAPIOperation.cursor,
    ]
    private static let summaryQuery: [JSONValue] = [
        OpenAPIOperation.query("period", Schema.enumeration(SummaryPeriod.allCases.map(\.rawValue)),
                               "The last 7, 30 or 365 days up to today in the club's zone, or `all`; instead of `from`/`to`."),
        OpenAPIOperation.query("from", day, "The first day of the period (default: the first tick)."),
        OpenAPIOperation.query("to", day, "The last day of the period (default: today in the club's zone)."),
    ]
    private static let visibility = "A tick shows to its climber always, to other members of this server when it is `public` or `members`, and never otherwise; `private` ticks are left out of everyone else's logbooks, summaries and meetup lists."

    static let listGyms = OpenAPIOperation(method: .get, path: "/v1/gyms", operationID: "listGyms", summary: "Gyms, by name or nearest first.", tag: "logbook",
                                           queryParameters: [
                                              OpenAPIOperation.query("q", Schema.string, "Only gyms whose name, in any locale, contains this text (case-insensitive)."),
                                              OpenAPIOperation.query("near", ["type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+$"],
                                                                     "`LAT,LON` in degrees: nearest gyms first, each with `distance_km`, one page without a cursor."),
                                              OpenAPIOperation.limit(20, 100), OpenAPIOperation.cursor,
                                           ],
                                           answers: [ok("A page of gyms.", "GymList")], problems: [400])
    static let createGym = OpenAPIOperation(method: .post, path: "/v1/gyms", operationID: "createGym", summary: "Add a gym (admins).", tag: "logbook",
                                            description: "Boulders and routes are each graded on a standard scale or by the gym's own colour circuit (`circuit`, with its levels easiest first, each covering a range of a standard grade).",
                                            requestBody: "GymCreateRequest", answers: [Answer(status: 201, description: "The gym.", schema: Schema.ref("Gym"))],
                                            problems: [400, 403, 413, 415, 422])
    static let getGym = OpenAPIOperation(method: .get, path: "/v1/gyms/{id}", operationID: "getGym", summary: "One gym with its colour circuits.", tag: "logbook",
                                         answers: [ok("The gym; level grades are shown in the caller's scales.", "Gym")], problems: [400, 404])
    static let updateGym = OpenAPIOperation(method: .patch, path: "/v1/gyms/{id}", operationID: "updateGym", summary: "Change a gym (its managers and admins).", tag: "logbook",
                                            description: "Members left out stay as they are; `null` removes `address`, `country`, `location` or `website`; a circuit given replaces the old one (ticks keep the grade and colour they were logged with).",
                                            requestBody: "GymUpdateRequest", answers: [ok("The changed gym.", "Gym")], problems: [400, 403, 404, 413, 415, 422])
    static let gymRanking = OpenAPIOperation(method: .get, path: "/v1/gyms/{id}/ranking", operationID: "gymRanking", summary: "The gym's ranking.", tag: "logbook",
                                             description: "The members who opted in (`in_rankings` in their logbook preferences), by the sum of the scores of their `logbook.ranking_best` hardest sends at the gym over the last `logbook.ranking_days` days (each problem counted once; private ticks left out); ties go to who got there first.",
                                             answers: [ok("The ranking.", "GymRanking")], problems: [400, 404])
    static let listGymManagers = OpenAPIOperation(method: .get, path: "/v1/gyms/{id}/managers", operationID: "listGymManagers", summary: "A gym's managers (its managers and admins).",
                                                  tag: "logbook", answers: [ok("The managers.", "CohostList")], problems: [400, 403, 404])
    static let addGymManager = OpenAPIOperation(method: .put, path: "/v1/gyms/{id}/managers/{user_id}", operationID: "addGymManager",
                                                summary: "Make a member a manager of the gym (admins; twice is harmless).", tag: "logbook",
                                                answers: [ok("The managers.", "CohostList")], problems: [400, 403, 404])
    static let removeGymManager = OpenAPIOperation(method: .delete, path: "/v1/gyms/{id}/managers/{user_id}", operationID: "removeGymManager",
                                                   summary: "Take a member's manager role on the gym away (admins).", tag: "logbook",
                                                   answers: [ok("The managers.", "CohostList")], problems: [400, 403, 404])
    static let listProblems = OpenAPIOperation(method: .get, path: "/v1/gyms/{id}/problems", operationID: "listProblems", summary: "The problems on a gym's walls.", tag: "logbook",
                                               queryParameters: [
                                                  OpenAPIOperation.query("on", day, "The problems up on this day instead of now (retired ones included if they were still up)."),
                                                  OpenAPIOperation.query("wall", Schema.string, "Only this wall (case-insensitive)."),
                                                  OpenAPIOperation.query("grade", Schema.string, "Only problems whose grade overlaps this one: a grade or level of the gym's, or a grade of any scale."),
                                                  OpenAPIOperation.limit(50, 200), OpenAPIOperation.cursor,
                                               ],
                                               answers: [ok("A page of problems.", "GymProblemList")], problems: [400, 404, 422])
    static let addProblem = OpenAPIOperation(method: .post, path: "/v1/gyms/{id}/problems", operationID: "addProblem", summary: "Add a problem (the gym's managers and admins).", tag: "logbook",
                                             description: "`grade` is a grade of the gym's scale for the discipline, or a level of its circuit (by name in any locale, position or colour). The same problem twice is added once.",
                                             requestBody: "GymProblemRequest", answers: [Answer(status: 201, description: "The problem.", schema: Schema.ref("GymProblem"))],
                                             problems: [400, 403, 404, 413, 415, 422])
    static let importProblemSet = OpenAPIOperation(method: .post, path: "/v1/gyms/{id}/problem-sets", operationID: "importProblemSet",
                                                   summary: "Add a whole set from CSV (the gym's managers and admins).", tag: "logbook",
                                                   description: "`csv` holds one problem a row: `wall, colour, grade, set_on[, name, setter]`, the header optional. The whole file is checked first; on any error nothing is written and 422 `invalid_problem_set` lists every row's error with its `line` in `rows`. Problems already there are left alone, so the same file twice changes nothing. `dry_run` checks and counts without writing.",
                                                   requestBody: "ProblemSetRequest",
                                                   answers: [Answer(status: 201, description: "Problems were added.", schema: Schema.ref("ProblemSetOutcome")),
                                                             ok("A dry run, or a file whose problems were all there already.", "ProblemSetOutcome")],
                                                   problems: [400, 403, 404, 413, 415, 422])
    static let retireWall = OpenAPIOperation(method: .post, path: "/v1/gyms/{id}/retirements", operationID: "retireWall",
                                             summary: "Retire a wall's current set (the gym's managers and admins).", tag: "logbook",
                                             description: "Every problem up on the wall is marked removed on `on` (today in the gym's zone by default); problems stay for the ticks that name them.",
                                             requestBody: "RetireWallRequest", answers: [ok("How many were retired.", "Retirement")], problems: [400, 403, 404, 413, 415, 422])
    static let logTick = OpenAPIOperation(method: .post, path: "/v1/me/ticks", operationID: "logTick", summary: "Log a climb.", tag: "logbook",
                                          description: "A tick names a problem (`problem_id`), a gym's level or grade (`gym_id` with `level` or `grade`), or an outdoor climb (`grade` with `grade_scale`). Its grade and colour are kept as they were. A tick climbed by a member checked in to a meetup, inside its check-in window, belongs to that meetup. `client_tick_id` makes logging idempotent: the same id again answers 200 with the first tick. \(visibility)",
                                          requestBody: "TickRequest",
                                          answers: [Answer(status: 201, description: "Logged.", schema: Schema.ref("Tick")), ok("Logged before with this `client_tick_id`: the first tick.", "Tick")],
                                          problems: [400, 404, 413, 415, 422])
    static let logTicks = OpenAPIOperation(method: .post, path: "/v1/me/ticks:batch", operationID: "logTicks", summary: "Log up to 200 climbs at once (offline logging).", tag: "logbook",
                                           description: "Every tick is answered in order: `created`, `duplicate` (its `client_tick_id` was logged before: a retried batch records nothing twice) or `refused` with the reason; refusals do not stop the others.",
                                           requestBody: "TickBatchRequest", answers: [ok("One result per tick.", "TickBatchResult")], problems: [400, 413, 415, 422])
    static let updateTick = OpenAPIOperation(method: .patch, path: "/v1/me/ticks/{id}", operationID: "updateTick", summary: "Change one of the caller's ticks.", tag: "logbook",
                                             description: "Style, attempts, note, stars, felt grade and visibility; what was climbed stays. `null` removes `note`, `stars` or `felt_grade`.",
                                             requestBody: "UpdateTickRequest", answers: [ok("The tick.", "Tick")], problems: [400, 404, 413, 415, 422])
    static let deleteTick = OpenAPIOperation(method: .delete, path: "/v1/me/ticks/{id}", operationID: "deleteTick", summary: "Delete one of the caller's ticks.", tag: "logbook",
                                             answers: [Answer(status: 204, description: "Deleted.", schema: nil)], problems: [400, 404])
    static let myLogbook = OpenAPIOperation(method: .get, path: "/v1/me/logbook", operationID: "myLogbook", summary: "The caller's ticks, newest day first.", tag: "logbook",
                                            queryParameters: logbookFilters, answers: [ok("A page of ticks.", "TickList")], problems: [400])
    static let memberLogbook = OpenAPIOperation(method: .get, path: "/v1/members/{id}/logbook", operationID: "memberLogbook", summary: "Another member's ticks that the caller may see.",
                                                tag: "logbook", description: visibility, queryParameters: logbookFilters, answers: [ok("A page of ticks.", "TickList")], problems: [400, 404])
    static let myLogbookSummary = OpenAPIOperation(method: .get, path: "/v1/me/logbook/summary", operationID: "myLogbookSummary", summary: "The caller's climbing over a period.", tag: "logbook",
                                                   description: "Sessions (a day at a gym or crag: sends, flashes, attempts, hardest), a grade pyramid per axis in the caller's scales (sends and flashes apart), the hardest send and flash, the personal bests that fell in the period (a send or flash harder than every one before it), and sessions a week.",
                                                   queryParameters: summaryQuery, answers: [ok("The summary.", "LogbookSummary")], problems: [400, 422])
    static let myGradePyramid = OpenAPIOperation(method: .get, path: "/v1/me/logbook/pyramid.png", operationID: "myGradePyramid",
                                                 summary: "The caller's grade pyramid as a 1080x1350 picture to share.", tag: "logbook",
                                                 description: "One bar a grade in the caller's scale, hardest at the top, sends in the grade's colour (a gym's colour level keeps its own) and flashes in gold, in the club's language. The axis with more sends unless `axis` says which. Drawn off the server's request threads; 503 `busy` with `Retry-After` when too many wait.",
                                                 queryParameters: summaryQuery + [OpenAPIOperation.query("axis", Schema.enumeration(GradeAxis.allCases.map(\.rawValue)), "Boulders or routes.")],
                                                 answers: [Answer.bytes("The PNG; its ETag is its content's digest.", contentType: "image/png"),
                                                           Answer(status: 304, description: "Not modified (`If-None-Match`).", schema: nil)],
                                                 problems: [400, 422, 503])
    static let mySeasonRecap = OpenAPIOperation(method: .get, path: "/v1/me/logbook/recap.png", operationID: "mySeasonRecap",
                                                summary: "A season of the caller's climbing as a 1080x1920 story to share.", tag: "logbook",
                                                description: "Laid out for the Stories safe zones: the period, the sessions, the sends and the hardest send, the grade pyramid of the axis with more sends, and the three places climbed most, in the club's language. Drawn off the server's request threads; 503 `busy` with `Retry-After` when too many wait.",
                                                queryParameters: summaryQuery,
                                                answers: [Answer.bytes("The PNG; its ETag is its content's digest.", contentType: "image/png"),
                                                          Answer(status: 304, description: "Not modified (`If-None-Match`).", schema: nil)],
                                                problems: [400, 422, 503])
    static let memberLogbookSummary = OpenAPIOperation(method: .get, path: "/v1/members/{id}/logbook/summary", operationID: "memberLogbookSummary",
                                                       summary: "Another member's climbing over a period, from the ticks the caller may see.", tag: "logbook",
                                                       queryParameters: summaryQuery, answers: [ok("The summary.", "LogbookSummary")], problems: [400, 404, 422])
    static let myLogbookCSV = OpenAPIOperation(method: .get, path: "/v1/me/logbook.csv", operationID: "myLogbookCSV", summary: "The caller's ticks as CSV.", tag: "logbook",
                                               description: "One row a tick, newest day first: the day, the time, what it names, the grade as it was and in the caller's scale, the style, attempts, stars, felt grade, visibility, note and `client_tick_id`.",
                                               answers: [Answer(status: 200, description: "The CSV file.", schema: Schema.string, contentType: "text/csv")])
    static let importLogbook = OpenAPIOperation(method: .post, path: "/v1/me/logbook/imports", operationID: "importLogbook",
                                                summary: "Import another logbook's export: theCrag's logbook CSV or Mountain Project's tick export.", tag: "logbook",
                                                description: "The format is told from the header. Every row becomes an outdoor tick in its own scale (`V3-4` and `5.10-` read as the grades they span; a protection rating such as `PG13` is dropped); theCrag's ascent types and Mountain Project's styles become `flash`, `send`, `repeat` or `attempt`. The whole file is checked first: on any error nothing is written and 422 `invalid_import` lists every row's problem with its `line`. Rows imported before are left alone, so the same file twice adds nothing; `dry_run` checks and counts without writing. Bodies are limited to `server.max_body_bytes`: `belay logbook HANDLE --import FILE` takes files of any size up to 10,000 ticks.",
                                                requestBody: "TickImportRequest",
                                                answers: [Answer(status: 201, description: "Ticks were added.", schema: Schema.ref("TickImportOutcome")),
                                                          ok("A dry run, or a file whose ticks were all imported before.", "TickImportOutcome")],
                                                problems: [400, 413, 415, 422])
    static let logbookPreferences = OpenAPIOperation(method: .get, path: "/v1/me/logbook/preferences", operationID: "logbookPreferences", summary: "The caller's grade scales and default visibility.",
                                                     tag: "logbook", answers: [ok("The preferences (v, yds and members until chosen).", "LogbookPreferences")])
    static let setLogbookPreferences = OpenAPIOperation(method: .put, path: "/v1/me/logbook/preferences", operationID: "setLogbookPreferences", summary: "Choose grade scales and default visibility.",
                                                        tag: "logbook", requestBody: "LogbookPreferencesRequest", answers: [ok("The preferences.", "LogbookPreferences")], problems: [400, 413, 415, 422])
    static let meetupTicks = OpenAPIOperation(method: .get, path: "/v1/meetups/{id}/ticks", operationID: "meetupTicks", summary: "What was climbed at a meetup.", tag: "logbook",
                                              description: visibility + " A meetup the caller may not read with `GET /v1/meetups/{id}` (private, hidden, or across a block) answers 404 `meetup_not_found`, as an unknown id.",
                                              answers: [ok("The ticks, by member and time.", "TickList")], problems: [400, 404])
}
