import BelayDomain
import BelayPipeline
import Foundation

/// The HTML of share pages: the page of one shared reward, and the "gone" and "not found"
/// pages, in the club's language. No script; every value is escaped; the stylesheet is a
/// separate file (`/assets/share-page.css`) so the Content-Security-Policy needs no inline
/// allowance.
enum SharePageDocument {
    /// The stylesheet's path, served beside the pages.
    static let stylesheetPath = "/assets/share-page.css"

    /// The page of `page`, with absolute URLs for link-preview crawlers.
    static func page(_ page: SharePage, settings: SharePageSettings, pageURL: String, stickerURL: String, cardURL: String,
                     badge: BadgeVerification? = nil) -> String {
        let language = settings.language
        let reward = page.reward
        let zone = TimeZone(identifier: reward.meetupTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let date = dateText(reward.meetupStartsAt, zone: zone, locale: settings.clubLocale)
        let isoDay = isoDate(reward.meetupStartsAt, zone: zone)
        let title = "\(reward.hold.name) · \(reward.placeName)"
        let description = language.description(hold: reward.hold.name, place: reward.placeName, date: date)
        let earned = language.earned(by: page.memberName, club: settings.clubName)
        let e = HTMLText.escaped

        let apps = storeLinks(settings, indent: "    ")
        var verdict = ""
        if let badge {
            verdict = badge.isValid
                ? "\n  <p class=\"badge verified\">✓ \(e(language.badgeVerified(by: settings.clubName)))</p>"
                : "\n  <p class=\"badge unverified\">\(e(language.badgeNotVerified))</p>"
        }

        return head(title: title, settings: settings) + """
        <meta name="description" content="\(e(description))">
        <meta property="og:type" content="website">
        <meta property="og:site_name" content="\(e(settings.clubName))">
        <meta property="og:title" content="\(e(title))">
        <meta property="og:description" content="\(e(description))">
        <meta property="og:url" content="\(e(pageURL))">
        <meta property="og:locale" content="\(e(settings.clubLocale))">
        <meta property="og:image" content="\(e(cardURL))">
        <meta property="og:image:width" content="1200">
        <meta property="og:image:height" content="630">
        <meta property="og:image:type" content="image/png">
        <meta property="og:image:alt" content="\(e(description))">
        <meta name="twitter:card" content="summary_large_image">
        <meta name="twitter:title" content="\(e(title))">
        <meta name="twitter:description" content="\(e(description))">
        <meta name="twitter:image" content="\(e(cardURL))">
        <link rel="canonical" href="\(e(pageURL))">
        <link rel="stylesheet" href="\(stylesheetPath)">
        </head>
        <body>
        <main class="reward rarity-\(reward.hold.rarity.rawValue)">
          <img class="sticker" src="\(e(stickerURL))" width="240" height="320" alt="\(e(language.stickerAlt)): \(e(reward.hold.name))">
          <h1 dir="auto">\(e(reward.hold.name))</h1>
          <p class="rarity">\(e(language.rarity(reward.hold.rarity)))</p>
          <p class="place" dir="auto">\(e(reward.placeName))</p>
          <p class="date"><time datetime="\(isoDay)">\(e(date))</time></p>
          <p class="earned" dir="auto">\(e(earned))</p>\(verdict)\(apps)
        </main>
        <footer dir="auto">\(e(settings.clubName))</footer>
        </body>
        </html>

        """
    }

    /// The start of every page: the document's language, encoding, viewport and title.
    /// The app's store links (`app_links.app_store_url`, `play_store_url`) as a `<nav>` on its own
    /// line after `indent`, or "" when the club has neither.
    static func storeLinks(_ settings: SharePageSettings, indent: String) -> String {
        let e = HTMLText.escaped
        let language = settings.language
        var stores = ""
        if !settings.appStoreURL.isEmpty {
            stores += "<a class=\"store\" href=\"\(e(settings.appStoreURL))\">\(e(language.appStore))</a>"
        }
        if !settings.playStoreURL.isEmpty {
            stores += "<a class=\"store\" href=\"\(e(settings.playStoreURL))\">\(e(language.playStore))</a>"
        }
        return stores.isEmpty ? "" : "\n\(indent)<nav class=\"apps\">\(stores)</nav>"
    }

    static func head(title: String, settings: SharePageSettings) -> String {
        """
        <!doctype html>
        <html lang="\(settings.language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escaped(title)) — \(HTMLText.escaped(settings.clubName))</title>

        """
    }

    /// The page for a revoked reward (410) or an unknown link (404).
    static func message(title: String, detail: String, settings: SharePageSettings) -> String {
        let e = HTMLText.escaped
        return head(title: title, settings: settings) + """
        <meta name="robots" content="noindex">
        <link rel="stylesheet" href="\(stylesheetPath)">
        </head>
        <body>
        <main class="message">
          <h1>\(e(title))</h1>
          <p>\(e(detail))</p>
        </main>
        <footer dir="auto">\(e(settings.clubName))</footer>
        </body>
        </html>

        """
    }

    /// The date as the club reads it, in the meetup's zone: `2026년 11월 29일 일요일`.
    static func dateText(_ instant: Date, zone: TimeZone, locale: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.timeZone = zone
        formatter.dateStyle = .full
        formatter.timeStyle = .none
        return formatter.string(from: instant)
    }

    static func isoDate(_ instant: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))"
    }

    /// The stylesheet: a centred card on a dark page, readable on a phone and a desktop.
    static let stylesheet = """
    :root { color-scheme: dark; }
    * { box-sizing: border-box; }
    html, body { margin: 0; }
    body {
      min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center;
      background: radial-gradient(circle at 50% 20%, #2b3445, #11151c 70%); color: #f4f6fa;
      font-family: "Noto Sans", "NanumGothic", "Noto Sans CJK KR", "Noto Sans Arabic", system-ui, sans-serif;
      padding: 24px;
    }
    main { width: 100%; max-width: 420px; text-align: center; }
    .sticker { width: 240px; max-width: 70vw; height: auto; filter: drop-shadow(0 12px 24px rgba(0, 0, 0, .45)); }
    h1 { font-size: 1.9rem; margin: 20px 0 4px; }
    .rarity { display: inline-block; margin: 4px 0 16px; padding: 2px 12px; border-radius: 999px; font-size: .85rem;
      letter-spacing: .04em; background: #3a4354; }
    .rarity-uncommon .rarity { background: #1f6f4a; }
    .rarity-rare .rarity { background: #2456a6; }
    .rarity-epic .rarity { background: #7a2fb0; }
    .place { font-size: 1.2rem; font-weight: 600; margin: 0; }
    .date { color: #b8c0cc; margin: 4px 0 20px; }
    .earned { color: #dfe4ec; margin: 0 0 20px; }
    .apps { display: flex; gap: 12px; justify-content: center; flex-wrap: wrap; }
    .store { color: #11151c; background: #f4f6fa; text-decoration: none; padding: 10px 16px; border-radius: 10px; font-weight: 600; }
    .badge { font-size: .9rem; margin: 0 0 20px; }
    .badge.verified { color: #7ee2a8; }
    .badge.unverified { color: #f0a0a0; }
    .message h1 { font-size: 1.5rem; }
    .meetup .date { margin: 4px 0; }
    .meetup .date.utc { font-size: .85rem; color: #8d96a5; margin-bottom: 20px; }
    .meetup .address { color: #b8c0cc; margin: 4px 0; }
    .meetup .places { display: inline-block; margin: 16px 0 4px; padding: 4px 14px; border-radius: 999px; background: #1f6f4a; font-weight: 600; }
    .meetup .level { margin: 8px 0; font-weight: 600; }
    .tags { list-style: none; padding: 0; margin: 8px 0 16px; display: flex; flex-wrap: wrap; gap: 8px; justify-content: center; }
    .tags li { padding: 2px 12px; border-radius: 999px; background: #3a4354; font-size: .85rem; }
    .meetup .host { color: #b8c0cc; }
    .meetup .description { text-align: start; white-space: pre-line; background: rgba(255, 255, 255, .05); border-radius: 12px; padding: 12px 16px; }
    .actions { margin: 20px 0; }
    .actions .open { color: #11151c; background: #f4f6fa; text-decoration: none; padding: 10px 16px; border-radius: 10px; font-weight: 600; }
    a { color: #9fc3ff; }
    footer { margin-top: 32px; color: #8d96a5; font-size: .9rem; }
    @media (min-width: 900px) { .sticker { width: 300px; } h1 { font-size: 2.4rem; } }

    """
}
