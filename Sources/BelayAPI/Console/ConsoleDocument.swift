import BelayCore
import BelayHTTP

/// The console's pages: one layout (the club's name, the signed-in member, the sections they
/// may open), server-rendered HTML that works without script. The script and stylesheet are
/// Belay's own (`/assets/console.js`, `/assets/console.css`), so the Content-Security-Policy
/// allows the page's own origin only, forbids inline script and framing.
enum ConsoleDocument {
    static let scriptPath = "/assets/console.js"
    static let stylesheetPath = "/assets/console.css"
    static let versionedScript = scriptPath + "?v=" + String(ContentDigest.hex(of: Array(ConsoleAssets.script.utf8)).prefix(12))
    static let versionedStylesheet = stylesheetPath + "?v=" + String(ContentDigest.hex(of: Array(ConsoleAssets.stylesheet.utf8)).prefix(12))

    /// Headers of every console page: nothing from elsewhere, no inline script, never in a
    /// frame (clickjacking), never cached (pages show members' names).
    static let pageHeaders: HTTPHeaders = [
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    ]

    /// The sections of the navigation.
    enum Section: Sendable { case meetups, moderation, members, gyms, server, invites, webhooks, secondFactor, none }

    /// Who the page is for (nil before signing in).
    struct Viewer: Sendable {
        let handle: String
        let displayName: String
        let formToken: String
        let isModerator: Bool
        let isAdmin: Bool
        /// Hosts and admins (who make invites).
        var isHost: Bool = false
    }

    static func escaped(_ text: String) -> String { HTMLText.escaped(text) }

    /// A whole page. `main` is HTML already escaped; `bodyData` become `data-` attributes of
    /// `body` for the script (escaped here).
    static func page(title: String, language: SharePageLanguage, clubName: String, viewer: Viewer?, section: Section = .none,
                     main: String, bodyData: [(String, String)] = []) -> String {
        let data = bodyData.map { " data-\($0.0)=\"\(escaped($0.1))\"" }.joined()
        var html = """
        <!doctype html>
        <html lang="\(language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="same-origin">
        <title>\(escaped(title)) · \(escaped(clubName))</title>
        <link rel="stylesheet" href="\(versionedStylesheet)">
        <script src="\(versionedScript)" defer></script>
        </head>
        <body class="console"\(data)>
        <a class="skip" href="#main">\(escaped(language.word(.skip)))</a>
        <header class="top">
        <p class="club"><a href="/console">\(escaped(clubName)) · \(escaped(language.word(.console)))</a></p>

        """
        if let viewer {
            html += "<nav aria-label=\"\(escaped(language.word(.console)))\"><ul>"
            html += navItem("/console", language.word(.meetups), current: section == .meetups)
            html += navItem("/console/gyms", language.word(.gyms), current: section == .gyms)
            if viewer.isModerator {
                html += navItem("/console/moderation", language.word(.moderation), current: section == .moderation)
            }
            if viewer.isHost {
                html += navItem("/console/invites", language.word(.invites), current: section == .invites)
            }
            if viewer.isAdmin {
                html += navItem("/console/webhooks", language.word(.webhooks), current: section == .webhooks)
                html += navItem("/console/server", language.word(.server), current: section == .server)
            }
            html += navItem("/console/second-factor", language.word(.secondFactor), current: section == .secondFactor)
            html += "</ul></nav>\n"
            html += """
            <form class="who" method="post" action="/console/sign-out">
            <span>\(escaped(language.word(.signedInAs))) <strong>\(escaped(viewer.displayName))</strong> (@\(escaped(viewer.handle)))</span>
            \(csrfField(viewer.formToken))
            <button type="submit" class="link">\(escaped(language.word(.signOut)))</button>
            </form>

            """
        }
        html += "</header>\n<main id=\"main\">\n" + main + "\n</main>\n</body>\n</html>\n"
        return html
    }

    private static func navItem(_ href: String, _ label: String, current: Bool) -> String {
        "<li><a href=\"\(href)\"\(current ? " aria-current=\"page\"" : "")>\(escaped(label))</a></li>"
    }

    /// The hidden field every form carries.
    static func csrfField(_ token: String) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(escaped(token))\">"
    }

    /// A problem shown at the top of a form (announced by screen readers).
    static func errorBox(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return "<p class=\"error\" role=\"alert\">\(escaped(message))</p>"
    }

    /// A labelled text input, keeping what was typed, with its problem beside it.
    static func field(name: String, id: String? = nil, label: String, value: String, type: String = "text", hint: String? = nil,
                      error: String? = nil, required: Bool = true, extra: String = "") -> String {
        let id = id ?? name
        let hintID = "\(id)-hint"
        let errorID = "\(id)-error"
        var described: [String] = []
        if hint != nil { described.append(hintID) }
        if error != nil { described.append(errorID) }
        var html = "<div class=\"field\"><label for=\"\(id)\">\(escaped(label))</label>"
        if let hint { html += "<span class=\"hint\" id=\"\(hintID)\">\(escaped(hint))</span>" }
        if let error { html += "<span class=\"field-error\" id=\"\(errorID)\">\(escaped(error))</span>" }
        html += "<input id=\"\(id)\" name=\"\(name)\" type=\"\(type)\" value=\"\(escaped(value))\""
        if required { html += " required" }
        if error != nil { html += " aria-invalid=\"true\"" }
        if !described.isEmpty { html += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        html += extra + "></div>"
        return html
    }
}
