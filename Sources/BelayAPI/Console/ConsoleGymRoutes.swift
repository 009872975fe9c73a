import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// Gym managers' pages: the gyms they manage, a gym's details, circuit and current set by
    /// wall, a new set from CSV previewed (its rows and every row's error) before anything is
    /// written, and retiring a wall. The domain decides who manages a gym (its managers and
    /// admins); anyone else gets the page that does not exist.
    func registerConsoleGymRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleGyms) { request, _ in
            try consolePage(request) { visitor, _ in try gymsPage(visitor) }
        }
        router.on(Operations.consoleGym) { request, context in
            try consolePage(request) { visitor, _ in
                try gymPage(visitor, try managedGym(try context.id(), visitor), upload: nil, notice: nil, status: .ok)
            }
        }
        router.on(Operations.consoleProblemSet) { request, context in
            try consolePage(request) { visitor, form in
                let gym = try managedGym(try context.id(), visitor)
                return try setUpload(visitor, gym, form)
            }
        }
        router.on(Operations.consoleRetireWall) { request, context in
            try consolePage(request) { visitor, form in
                let gym = try managedGym(try context.id(), visitor)
                let wall = form.trimmed("wall")
                do {
                    let retired = try domain.problems.retireWall(wall, gymID: gym.id, by: visitor.actor)
                    return try gymPage(visitor, gym, upload: nil, notice: "\(wall): \(retired)", status: .ok)
                } catch let error as DomainError where error.reason != .notPermitted {
                    let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
                    return try gymPage(visitor, gym, upload: nil, notice: nil, retireError: message, status: status)
                }
            }
        }
    }

    /// A set file as sent, and what reading it found.
    struct SetUpload {
        var form: ConsoleForm
        var outcome: ProblemSetOutcome?
        var rowErrors: [ProblemSetError.RowError] = []
        var error: String?
    }

    private func managedGym(_ id: Int64, _ visitor: ConsoleVisitor) throws -> Gym {
        let gym: Gym
        do { gym = try domain.gyms.gym(id: id) } catch let error as DomainError where error.reason == .gymNotFound { throw ConsolePageNotFound() }
        guard try domain.gyms.isManaged(gymID: gym.id, by: visitor.actor) else { throw ConsolePageNotFound() }
        return gym
    }

    /// The gym's name in the visitor's language when it has one.
    private func gymName(_ gym: Gym, _ language: SharePageLanguage) -> String {
        gym.localizedNames[language.rawValue] ?? gym.name
    }

    private func gymsPage(_ visitor: ConsoleVisitor) throws -> Response {
        let e = HTMLText.escaped
        let word = visitor.language.word
        var gyms: [Gym] = []
        var cursor: String?
        repeat {
            let page = try domain.gyms.list(matching: nil, near: nil, limit: 100, cursor: cursor)
            gyms += try page.items.filter { try domain.gyms.isManaged(gymID: $0.id, by: visitor.actor) }
            cursor = page.nextCursor
        } while cursor != nil
        var main = "<h1>\(e(word(.gyms)))</h1>"
        if gyms.isEmpty { main += "<p class=\"empty\">—</p>" }
        main += "<ul class=\"links\">" + gyms.map { "<li><a href=\"/console/gyms/\($0.id)\">\(e(gymName($0, visitor.language)))</a></li>" }.joined() + "</ul>"
        return Self.htmlPage(ConsoleDocument.page(title: word(.gyms), language: visitor.language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .gyms, main: main))
    }

    private func gymPage(_ visitor: ConsoleVisitor, _ gym: Gym, upload: SetUpload?, notice: String?, retireError: String? = nil,
                         status: HTTPStatus) throws -> Response {
        let e = HTMLText.escaped
        let word = visitor.language.word
        let facts = [gym.address ?? "", gym.timeZone, "boulder: \(gym.boulderGrading.rawValue)", "route: \(gym.routeGrading.rawValue)"]
        var main = "<h1>\(e(gymName(gym, visitor.language)))</h1><p class=\"sub\">\(e(facts.filter { !$0.isEmpty }.joined(separator: " · ")))</p>"
        if let notice { main += "<p class=\"notice\" role=\"status\">\(e(notice))</p>" }
        if !gym.boulderLevels.isEmpty {
            main += "<h2>\(e(word(.circuit)))</h2><ul class=\"circuit\">" + gym.boulderLevels.map {
                "<li><strong>\(e($0.localizedNames[visitor.language.rawValue] ?? $0.name))</strong> (\(e($0.colour)))</li>"
            }.joined() + "</ul>"
        }

        // The set as it is, by wall.
        var problems: [Problem] = []
        var cursor: String?
        repeat {
            let page = try domain.problems.list(gymID: gym.id, on: nil, wall: nil, grade: nil, limit: 200, cursor: cursor)
            problems += page.items
            cursor = page.nextCursor
        } while cursor != nil && problems.count < 2_000
        main += "<h2>\(e(word(.problems)))</h2>"
        let walls = Dictionary(grouping: problems, by: \.wall).sorted { $0.key < $1.key }
        if walls.isEmpty { main += "<p class=\"empty\">—</p>" }
        for (wall, onWall) in walls {
            main += "<h3>\(e(wall)) (\(onWall.count))</h3><ul class=\"problems\">"
            main += onWall.map { "<li>\(e($0.holdColour)) · \(e($0.grade))\($0.name.map { " · " + e($0) } ?? "") · \(e($0.setOn))</li>" }.joined()
            main += "</ul>"
        }

        // A new set.
        let csv = upload?.form["csv"] ?? ""
        main += "<h2 id=\"new-set\">\(e(word(.setFile)))</h2>"
        main += "<form method=\"post\" action=\"/console/gyms/\(gym.id)/sets\" class=\"set\">" + ConsoleDocument.csrfField(visitor.formToken)
        main += ConsoleDocument.errorBox(upload?.error)
        if let upload, !upload.rowErrors.isEmpty {
            main += "<div class=\"table-wrap\"><table><caption>\(e(word(.rows)))</caption><thead><tr><th scope=\"col\">#</th><th scope=\"col\">\(e(word(.reason)))</th></tr></thead><tbody>"
            main += upload.rowErrors.map { "<tr class=\"bad\"><td class=\"number\">\($0.line)</td><td>\(e($0.message))</td></tr>" }.joined()
            main += "</tbody></table></div>"
        }
        if let outcome = upload?.outcome {
            main += "<p class=\"notice\" role=\"status\">\(outcome.rows) · +\(outcome.added) · =\(outcome.unchanged)</p>"
            main += "<div class=\"table-wrap\"><table class=\"preview\"><caption>\(e(word(.preview)))</caption><thead><tr><th scope=\"col\">#</th><th scope=\"col\">wall</th>"
            main += "<th scope=\"col\">colour</th><th scope=\"col\">grade</th><th scope=\"col\">set_on</th><th scope=\"col\">name</th><th scope=\"col\"></th></tr></thead><tbody>"
            for row in outcome.preview {
                main += "<tr><td class=\"number\">\(row.line)</td><td>\(e(row.wall))</td><td>\(e(row.holdColour))</td><td>\(e(row.grade))</td>"
                main += "<td>\(e(row.setOn))</td><td>\(e(row.name ?? ""))</td><td>\(row.isNew ? "+" : "=")</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        main += """
        <div class="field"><label for="csv-file">\(e(word(.chooseFile)))</label>
        <input id="csv-file" type="file" accept=".csv,text/csv" data-into="csv"></div>
        <div class="field"><label for="csv">CSV</label><span class="hint" id="csv-hint">\(e(word(.setFileHint)))</span>
        <textarea id="csv" name="csv" rows="8" required aria-describedby="csv-hint">\(e(csv))</textarea></div>
        <div class="actions"><button type="submit" name="step" value="preview" class="secondary">\(e(word(.preview)))</button>
        """
        if let outcome = upload?.outcome, upload?.rowErrors.isEmpty == true, outcome.added > 0 {
            main += "<button type=\"submit\" name=\"step\" value=\"write\">\(e(word(.write)))</button>"
        }
        main += "</div></form>"

        main += "<h2>\(e(word(.retire)))</h2><form method=\"post\" action=\"/console/gyms/\(gym.id)/retirements\" class=\"add\">" + ConsoleDocument.csrfField(visitor.formToken)
        main += ConsoleDocument.field(name: "wall", label: word(.wall), value: "", error: retireError)
            + "<button type=\"submit\" class=\"danger\">\(e(word(.retire)))</button></form>"
        return Self.htmlPage(ConsoleDocument.page(title: gymName(gym, visitor.language), language: visitor.language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .gyms, main: main), status: status)
    }

    private func setUpload(_ visitor: ConsoleVisitor, _ gym: Gym, _ form: ConsoleForm) throws -> Response {
        let write = form["step"] == "write"
        var upload = SetUpload(form: form)
        do {
            let outcome = try domain.problems.importSet(csv: form["csv"] ?? "", gymID: gym.id, dryRun: !write, by: visitor.actor)
            if write {
                return try gymPage(visitor, gym, upload: nil, notice: "+\(outcome.added) · =\(outcome.unchanged)", status: .ok)
            }
            upload.outcome = outcome
            return try gymPage(visitor, gym, upload: upload, notice: nil, status: .ok)
        } catch let error as ProblemSetError {
            upload.rowErrors = error.rows
            upload.error = error.domainError.message
            return try gymPage(visitor, gym, upload: upload, notice: nil, status: .unprocessableContent)
        } catch let error as DomainError where error.reason != .notPermitted {
            let (status, message) = try Self.consoleMessage(for: error, in: visitor.language)
            upload.error = message
            return try gymPage(visitor, gym, upload: upload, notice: nil, status: status)
        }
    }
}
