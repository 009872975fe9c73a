import BelayCore
import BelayHTTP

extension APIRoutes {
    /// `GET /`: the club's name and where to go (the console, the API document, the health
    /// checks).
    func registerFrontDoorRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.frontDoor) { _, _ in
            let language = clubLanguage
            let word = language.word
            let e = HTMLText.escaped
            let main = """
            <section class="narrow"><h1>\(e(presentation.clubName))</h1>
            <p>\(e(word(.frontDoorTitle)))</p>
            <ul class="links">
            <li><a href="/console">\(e(word(.frontDoorConsole)))</a></li>
            <li><a href="/openapi.html">\(e(word(.frontDoorAPI)))</a> (<a href="/openapi.json">/openapi.json</a>)</li>
            <li>\(e(word(.frontDoorHealth))): <a href="/healthz">/healthz</a>, <a href="/readyz">/readyz</a></li>
            </ul></section>
            """
            return Self.htmlPage(ConsoleDocument.page(title: presentation.clubName, language: language, clubName: presentation.clubName,
                                                      viewer: nil, main: main))
        }
    }

    /// `GET /openapi.html`: `document` (what `/openapi.json` serves) as a page.
    func registerReadableDocumentRoute(on router: OperationRoutes<APIContext>, document: JSONValue) {
        let readable = Self.readableDocument(document, language: clubLanguage, clubName: presentation.clubName)
        router.on(Operations.readableAPIDocument) { _, _ in Self.htmlPage(readable) }
    }

    /// The operations of `document`, by tag: method, path, summary, and under each its
    /// description, parameters and answers.
    static func readableDocument(_ document: JSONValue, language: SharePageLanguage, clubName: String) -> String {
        let e = HTMLText.escaped
        let title = document["info"]?["title"]?.stringValue ?? "API"
        var byTag: [String: [(path: String, method: String, operation: JSONValue)]] = [:]
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] {
                let tag = operation["tags"]?.arrayValue?.first?.stringValue ?? "other"
                byTag[tag, default: []].append((path, method, operation))
            }
        }
        let tagOrder = (document["tags"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        var main = "<h1>\(e(title))</h1>"
        main += "<p>\(e(document["info"]?["description"]?.stringValue ?? ""))</p>"
        main += "<p><a href=\"/openapi.json\">/openapi.json</a></p>"
        main += "<nav aria-label=\"\(e(language.word(.operations)))\"><ul>"
        for tag in tagOrder where byTag[tag] != nil { main += "<li><a href=\"#tag-\(e(tag))\">\(e(tag))</a></li>" }
        main += "</ul></nav>"
        for tag in tagOrder + byTag.keys.filter({ !tagOrder.contains($0) }).sorted() {
            guard let operations = byTag[tag] else { continue }
            main += "<section aria-labelledby=\"tag-\(e(tag))\"><h2 id=\"tag-\(e(tag))\">\(e(tag))</h2>"
            for (path, method, operation) in operations.sorted(by: { ($0.path, $0.method) < ($1.path, $1.method) }) {
                main += "<details class=\"operation\"><summary><span class=\"method\">\(e(method.uppercased()))</span> <code>\(e(path))</code> — "
                main += "\(e(operation["summary"]?.stringValue ?? ""))</summary><div class=\"detail\">"
                if let description = operation["description"]?.stringValue, !description.isEmpty { main += "<p>\(e(description))</p>" }
                let parameters = operation["parameters"]?.arrayValue ?? []
                if !parameters.isEmpty {
                    main += "<ul>"
                    for parameter in parameters {
                        main += "<li><code>\(e(parameter["name"]?.stringValue ?? ""))</code> (\(e(parameter["in"]?.stringValue ?? ""))): "
                        main += "\(e(parameter["description"]?.stringValue ?? ""))</li>"
                    }
                    main += "</ul>"
                }
                let answers = (operation["responses"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
                main += "<ul>"
                for (status, answer) in answers {
                    main += "<li><strong>\(e(status))</strong> \(e(answer["description"]?.stringValue ?? answer["$ref"]?.stringValue ?? ""))</li>"
                }
                main += "</ul></div></details>"
            }
            main += "</section>"
        }
        return ConsoleDocument.page(title: title, language: language, clubName: clubName, viewer: nil, main: main)
    }
}
