import BelayCore
import BelayDomain
import Foundation

/// The HTML of a meetup's public page, `/m/{slug}`, in the club's language: no script, every
/// value escaped, the link-preview tags Open Graph, Twitter, KakaoTalk and LINE read, and an
/// `Event` in JSON-LD (schema.org) for search engines.
enum MeetupPageDocument {
    /// The page of a published meetup, with absolute URLs for preview robots.
    static func page(_ meetup: Meetup, hostName: String?, settings: SharePageSettings, pageURL: String, cardURL: String, icsURL: String,
                     appURL: String) -> String {
        let e = HTMLText.escaped
        let language = settings.language
        let zone = TimeZone(identifier: meetup.timeZone) ?? .gmt
        let when = dateTime(meetup.startsAt, zone: zone, locale: settings.clubLocale)
        let utc = dateTime(meetup.startsAt, zone: .gmt, locale: settings.clubLocale)
        let placesLeft = Self.placesLeft(meetup.placesLeft, language)
        var facts: [String] = [when, meetup.placeName, placesLeft]
        if let level = meetup.level { facts.append("\(level.lowestGrade)–\(level.highestGrade)") }
        let description = facts.joined(separator: " · ")
        var mapLinks = ""
        if let location = meetup.location {
            let query = "\(location.latitude),\(location.longitude)"
            let name = meetup.placeName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            mapLinks = """

              <p class="map"><a href="\(e("https://maps.apple.com/?ll=\(query)&q=\(name)"))">\(e(language.appleMaps))</a> · <a href="\(e("https://www.google.com/maps/search/?api=1&query=\(query)"))">\(e(language.googleMaps))</a></p>
            """
        }
        let level = meetup.level.map { "\n  <p class=\"level\">\(e(language.levelLabel)): \(e($0.lowestGrade))–\(e($0.highestGrade))</p>" } ?? ""
        let tags = meetup.tags.isEmpty ? "" : "\n  <ul class=\"tags\">" + meetup.tags.map { "<li>\(e(language.tagName($0)))</li>" }.joined() + "</ul>"
        let host = hostName.map { "\n  <p class=\"host\" dir=\"auto\">\(e(language.hostedBy($0)))</p>" } ?? ""
        let address = meetup.address.map { "\n  <p class=\"address\" dir=\"auto\">\(e($0))</p>" } ?? ""
        return SharePageDocument.head(title: meetup.title, settings: settings) + """
        <meta name="description" content="\(e(description))">
        <meta property="og:type" content="website">
        <meta property="og:site_name" content="\(e(settings.clubName))">
        <meta property="og:title" content="\(e(meetup.title))">
        <meta property="og:description" content="\(e(description))">
        <meta property="og:url" content="\(e(pageURL))">
        <meta property="og:locale" content="\(e(settings.clubLocale))">
        <meta property="og:image" content="\(e(cardURL))">
        <meta property="og:image:width" content="1200">
        <meta property="og:image:height" content="630">
        <meta property="og:image:type" content="image/png">
        <meta property="og:image:alt" content="\(e(description))">
        <meta name="twitter:card" content="summary_large_image">
        <meta name="twitter:title" content="\(e(meetup.title))">
        <meta name="twitter:description" content="\(e(description))">
        <meta name="twitter:image" content="\(e(cardURL))">
        <meta property="al:ios:url" content="\(e(appURL))">
        <meta property="al:android:url" content="\(e(appURL))">
        <meta property="al:web:url" content="\(e(pageURL))">
        <link rel="canonical" href="\(e(pageURL))">
        <link rel="stylesheet" href="\(SharePageDocument.stylesheetPath)">
        <script type="application/ld+json">\(jsonLD(meetup, hostName: hostName, pageURL: pageURL, cardURL: cardURL, settings: settings))</script>
        </head>
        <body>
        <main class="meetup">
          <h1 dir="auto">\(e(meetup.title))</h1>
          <p class="date"><time datetime="\(e(RFC3339.string(from: meetup.startsAt, utcOffsetSeconds: zone.secondsFromGMT(for: meetup.startsAt))))">\(e(when))</time> (\(e(meetup.timeZone)))</p>
          <p class="date utc">\(e(language.utcLabel)): \(e(utc))</p>
          <p class="place" dir="auto">\(e(meetup.placeName))</p>\(address)\(mapLinks)
          <p class="places">\(e(placesLeft))</p>\(level)\(tags)\(host)
          <p class="description" dir="auto">\(e(meetup.description))</p>
          <p class="actions"><a class="open" href="\(e(appURL))">\(e(language.openInApp))</a> · <a href="\(e(icsURL))">\(e(language.addToCalendar))</a></p>\(SharePageDocument.storeLinks(settings, indent: "  "))
        </main>
        <footer dir="auto">\(e(settings.clubName))</footer>
        </body>
        </html>

        """
    }

    /// The `Event` (schema.org) of the meetup, escaped for a `<script>` element.
    static func jsonLD(_ meetup: Meetup, hostName: String?, pageURL: String, cardURL: String, settings: SharePageSettings) -> String {
        let zone = TimeZone(identifier: meetup.timeZone) ?? .gmt
        var place: [(String, JSONValue)] = [("@type", "Place"), ("name", .string(meetup.placeName))]
        place.append(("address", .string(meetup.address ?? meetup.placeName)))
        if let location = meetup.location {
            place.append(("geo", .object(JSONObject([("@type", "GeoCoordinates"), ("latitude", .number(JSONNumber(location.latitude))),
                                                     ("longitude", .number(JSONNumber(location.longitude)))]))))
        }
        let status: String = switch meetup.status {
        case .cancelled: "https://schema.org/EventCancelled"
        case .scheduled, .completed: "https://schema.org/EventScheduled"
        }
        var event: [(String, JSONValue)] = [
            ("@context", "https://schema.org"), ("@type", "Event"), ("name", .string(meetup.title)),
            ("description", .string(meetup.description.isEmpty ? meetup.title : meetup.description)),
            ("startDate", .string(RFC3339.string(from: meetup.startsAt, utcOffsetSeconds: zone.secondsFromGMT(for: meetup.startsAt)))),
            ("endDate", .string(RFC3339.string(from: meetup.endsAt, utcOffsetSeconds: zone.secondsFromGMT(for: meetup.endsAt)))),
            ("eventStatus", .string(status)), ("eventAttendanceMode", "https://schema.org/OfflineEventAttendanceMode"),
            ("location", .object(JSONObject(place))), ("image", .array([.string(cardURL)])), ("url", .string(pageURL)),
            ("maximumAttendeeCapacity", .int(Int64(meetup.capacity))), ("remainingAttendeeCapacity", .int(Int64(meetup.placesLeft))),
            ("offers", .object(JSONObject([("@type", "Offer"), ("price", "0"), ("priceCurrency", "KRW"), ("url", .string(pageURL)),
                                           ("availability", .string(meetup.placesLeft > 0 ? "https://schema.org/InStock" : "https://schema.org/SoldOut"))]))),
        ]
        event.append(("organizer", .object(JSONObject([("@type", hostName == nil ? "Organization" : "Person"),
                                                       ("name", .string(hostName ?? settings.clubName))]))))
        let text = String(decoding: JSONValue.object(JSONObject(event)).jsonBytes, as: UTF8.self)
        // Inside <script>, "</" would end the element: JSON allows "<\/" for it.
        return text.replacingOccurrences(of: "</", with: "<\\/")
    }

    /// `2026년 12월 12일 토요일 오후 7:00`, in `zone`.
    static func dateTime(_ instant: Date, zone: TimeZone, locale: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.timeZone = zone
        formatter.dateStyle = .full
        formatter.timeStyle = .short
        return formatter.string(from: instant)
    }

    static func placesLeft(_ count: Int, _ language: SharePageLanguage) -> String {
        switch language {
        case .korean: return count > 0 ? "\(count)자리 남음" : "마감 (대기 가능)"
        case .japanese: return count > 0 ? "残り\(count)枠" : "満員（キャンセル待ち可）"
        case .english: return count > 0 ? "\(count) \(count == 1 ? "place" : "places") left" : "Full (waitlist open)"
        }
    }
}
