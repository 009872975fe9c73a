import BelayCore
import BelayDomain
import BelayRepresentations
import Foundation

/// The front-desk kiosk: its page, the state its script polls, the script and the stylesheet.
///
/// The page is whole when served (the code, its QR code and the count are in the HTML); the
/// script (`/assets/kiosk.js`, Belay's own, no third party) then polls `/k/{token}/state` and
/// redraws the QR code, the digits, the countdown bar and the count in place. The page has no
/// inline script or style, so the Content-Security-Policy allows only the page's own origin.
/// Every countdown is measured from the server's clock (`seconds_left`), never the tablet's.
enum KioskDocument {
    static let scriptPath = "/assets/kiosk.js"
    static let stylesheetPath = "/assets/kiosk.css"

    /// The addresses the page names, with a digest of the content: they are cached, and a
    /// page served after an upgrade must not run the script (or style) of the version before.
    static let versionedScript = scriptPath + "?v=" + String(ContentDigest.hex(of: Array(script.utf8)).prefix(12))
    static let versionedStylesheet = stylesheetPath + "?v=" + String(ContentDigest.hex(of: Array(stylesheet.utf8)).prefix(12))

    /// How often the script asks for the state (sooner when the code is about to change).
    static let refreshMilliseconds = 2_000

    /// What the kiosk shows now, as the page and the state endpoint both write it.
    struct State {
        let view: KioskView
        let language: SharePageLanguage
        let locale: String
        let checkInURL: String?
        let qr: QRCode?

        init(view: KioskView, settings: SharePageSettings, presentation: Presentation) {
            self.view = view
            language = settings.language
            locale = settings.clubLocale
            if let code = view.code {
                let url = presentation.absoluteURL("/c/\(view.meetup.id)?code=\(code.code)")
                checkInURL = url
                qr = QRCode(url)
            } else {
                checkInURL = nil
                qr = nil
            }
        }

        var isOpen: Bool { view.code != nil && qr != nil }
        var zone: TimeZone { TimeZone(identifier: view.meetup.timeZone) ?? TimeZone(secondsFromGMT: 0)! }
        var countText: String { language.checkedIn(view.checkedIn, of: view.holdingAPlace) }

        /// Seconds until the code shown now is replaced (by the server's clock).
        var secondsLeft: Double {
            guard let code = view.code else { return 0 }
            return max(0, code.expiresAt.timeIntervalSince(view.now))
        }

        /// When the script should ask again: every two seconds, or just after the code changes.
        var refreshAfterMilliseconds: Int {
            var wait = refreshMilliseconds
            if isOpen { wait = min(wait, Int(secondsLeft * 1000) + 150) }
            else { wait = min(wait, max(0, Int(view.window.opensAt.timeIntervalSince(view.now) * 1000)) + 150) }
            return max(250, wait)
        }

        var opensText: String {
            let sameDay = Calendar.current.dateComponents(in: zone, from: view.now).day
                == Calendar.current.dateComponents(in: zone, from: view.window.opensAt).day
            return language.checkInOpens(at: KioskDocument.format(view.window.opensAt, template: sameDay ? "jmm" : "MMMdjmm",
                                                                  zone: zone, locale: locale))
        }

        /// "Sunday, November 29 · 7:00 PM – 9:00 PM" in the club's language and the meetup's zone.
        var timeText: String {
            let meetup = view.meetup
            let day = KioskDocument.format(meetup.startsAt, template: "EEEEMMMMd", zone: zone, locale: locale)
            let start = KioskDocument.format(meetup.startsAt, template: "jmm", zone: zone, locale: locale)
            let end = KioskDocument.format(meetup.endsAt, template: "jmm", zone: zone, locale: locale)
            return "\(day) · \(start) – \(end)"
        }

        /// The six digits as they are read aloud: `123 456`.
        var codeDisplay: String {
            guard let code = view.code?.code, code.count == 6 else { return view.code?.code ?? "" }
            return String(code.prefix(3)) + " " + String(code.suffix(3))
        }

        /// The JSON the script polls.
        var json: [UInt8] {
            var json = JSONOutput()
            json.object { json in
                json.member("status", isOpen ? "open" : "not_open")
                json.member("meetup_id", view.meetup.id)
                json.member("checked_in", view.checkedIn)
                json.member("holding_a_place", view.holdingAPlace)
                json.member("count_text", countText)
                json.member("code", isOpen ? view.code?.code : nil)
                json.member("code_display", isOpen ? codeDisplay : nil)
                json.member("check_in_url", isOpen ? checkInURL : nil)
                if let qr, isOpen {
                    json.member("qr") { json in
                        json.member("side", qr.side)
                        json.member("path", qr.path)
                    }
                } else {
                    json.key("qr")
                    json.null()
                }
                json.member("seconds_left", isOpen ? secondsLeft : 0)
                json.member("step_seconds", view.code?.stepSeconds ?? 0)
                json.member("opens_text", isOpen ? nil : opensText)
                json.member("refresh_after_ms", refreshAfterMilliseconds)
            }
            return json.bytes
        }
    }

    /// The kiosk's page; `stateURL` is the path its script polls.
    static func page(_ state: State, settings: SharePageSettings, stateURL: String) -> String {
        let e = HTMLText.escaped
        let language = state.language
        let meetup = state.view.meetup
        let open = state.isOpen
        let qr = state.qr ?? QRCode("-")
        let hidden = { (shown: Bool) in shown ? "" : " hidden" }
        return SharePageDocument.head(title: meetup.title, settings: settings) + """
        <meta name="robots" content="noindex">
        <link rel="stylesheet" href="\(versionedStylesheet)">
        <script src="\(versionedScript)" defer></script>
        </head>
        <body class="kiosk" data-state="\(e(stateURL))" data-status="\(open ? "open" : "not_open")" data-refresh-after-ms="\(state.refreshAfterMilliseconds)">
        <main id="live" class="screen">
          <section class="scan">
            <div id="qr-box" class="qr-box"\(hidden(open))>\(qr?.svg(label: language.qrLabel) ?? "")</div>
            <p id="code" class="code" data-code="\(e(open ? state.view.code?.code ?? "" : ""))" data-seconds-left="\(open ? state.secondsLeft : 0)" \
        data-step-seconds="\(state.view.code?.stepSeconds ?? 30)"\(hidden(open))>\(e(open ? state.codeDisplay : ""))</p>
            <div id="bar-track" class="bar-track" aria-hidden="true"\(hidden(open))><div id="bar" class="bar"></div></div>
            <p id="waiting" class="waiting"\(hidden(!open))>\(e(open ? "" : state.opensText))</p>
          </section>
          <section class="about">
            <p class="club" dir="auto">\(e(settings.clubName))</p>
            <h1 dir="auto">\(e(meetup.title))</h1>
            <p class="place" dir="auto">\(e(meetup.placeName))</p>
            <p class="time"><time datetime="\(e(RFC3339.string(from: meetup.startsAt, fraction: .none)))">\(e(state.timeText))</time></p>
            <p id="count" class="count" aria-live="polite">\(e(state.countText))</p>
            <p id="hint" class="hint"\(hidden(open))>\(e(language.scanToCheckIn))</p>
            <p id="offline" class="offline" hidden>\(e(language.reconnecting))</p>
          </section>
        </main>
        <main id="notice" class="notice" hidden>
          <h1 id="notice-title"></h1>
          <p id="notice-detail"></p>
        </main>
        </body>
        </html>

        """
    }

    /// The page of a link that shows nothing (410) or no link at all (404), in the kiosk's style.
    static func message(title: String, detail: String, settings: SharePageSettings) -> String {
        let e = HTMLText.escaped
        return SharePageDocument.head(title: title, settings: settings) + """
        <meta name="robots" content="noindex">
        <link rel="stylesheet" href="\(versionedStylesheet)">
        </head>
        <body class="kiosk" data-status="gone">
        <main class="notice">
          <h1>\(e(title))</h1>
          <p>\(e(detail))</p>
          <p class="club" dir="auto">\(e(settings.clubName))</p>
        </main>
        </body>
        </html>

        """
    }

    /// The page of the check-in link for a browser without the app: what the link does, the
    /// code it carries, and where to get the app (the store links of `app_links`).
    static func checkInLinkPage(code: String, settings: SharePageSettings) -> String {
        let e = HTMLText.escaped
        let language = settings.language
        let title = language.checkInWithApp(club: settings.clubName)
        let apps = SharePageDocument.storeLinks(settings, indent: "  ")
        let digits = code.isEmpty ? "" : "\n  <p class=\"link-code\">\(e(language.codeInLink(code)))</p>"
        return SharePageDocument.head(title: title, settings: settings) + """
        <meta name="robots" content="noindex">
        <link rel="stylesheet" href="\(versionedStylesheet)">
        </head>
        <body class="kiosk">
        <main class="notice">
          <h1>\(e(title))</h1>
          <p>\(e(language.checkInWithAppDetail))</p>\(digits)\(apps)
          <p class="club" dir="auto">\(e(settings.clubName))</p>
        </main>
        </body>
        </html>

        """
    }

    /// `instant` written with a localized template (`jmm`: the hour and minutes as the locale
    /// writes them) in `zone`.
    static func format(_ instant: Date, template: String, zone: TimeZone, locale: String) -> String {
        LocalizedDateFormatters.shared.string(from: instant, template: template, zone: zone, locale: locale)
    }
}
