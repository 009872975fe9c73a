import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRender
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// A meetup's public page, answered without a token: `/m/{slug}` (HTML), its calendar entry
    /// (`/m/{slug}.ics`) and its link-preview card (`/m/{slug}/card.png`). Like share pages they
    /// take any query string (messengers append their own) and are cached briefly, so a change
    /// to the meetup shows within `sharePageMaxAge` seconds.
    func registerMeetupPageRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.meetupPage) { request, context in
            let slug = try context.parameters.require("slug")
            // Kept as the share pages are (briefly, emptied by an unpublish, an edit or a moderator's
            // action), under a key no share page's slug can have.
            let key = "m/" + slug
            if let cached = sharePageCache.value(for: key) { return Self.pageResponse(cached, request) }
            let settings = services.sharePageSettings
            let language = settings.language
            let page: CachedPage
            switch try domain.meetups.publicPage(slug: Self.slug(slug)) {
            case .notFound:
                page = CachedPage(status: .notFound, html: SharePageDocument.message(title: language.notFoundTitle, detail: language.notFoundDetail,
                                                                                     settings: settings))
            case .gone:
                page = CachedPage(status: .gone, html: SharePageDocument.message(title: language.goneTitle, detail: language.meetupGoneDetail,
                                                                                 settings: settings))
            case let .published(meetup, hostName):
                let base = presentation.absoluteURL("/m/\(slug)")
                page = CachedPage(status: .ok, html: MeetupPageDocument.page(
                    meetup, hostName: hostName, settings: settings, pageURL: base, cardURL: base + "/card.png", icsURL: base + ".ics",
                    appURL: presentation.absoluteURL("/meetups/\(meetup.id)")))
            }
            if page.status != .notFound { sharePageCache.store(page, for: key) }
            return Self.pageResponse(page, request)
        }
        router.on(Operations.meetupPageCard) { request, context in
            let meetup = try publishedMeetup(slug: try context.parameters.require("slug"))
            guard let pictures = services.logbookPictures else {
                throw HTTPError(.serviceUnavailable, code: "card_unavailable",
                                detail: "This server cannot draw cards (its renderer did not start); try again later.", headers: ["Retry-After": "60"])
            }
            let settings = services.sharePageSettings
            let zone = TimeZone(identifier: meetup.timeZone) ?? .gmt
            let content = MeetupCardContent(
                clubName: settings.clubName, title: meetup.title,
                when: MeetupPageDocument.dateTime(meetup.startsAt, zone: zone, locale: settings.clubLocale), place: meetup.placeName,
                level: meetup.level.map { "\($0.lowestGrade)–\($0.highestGrade)" } ?? "",
                placesLeft: MeetupPageDocument.placesLeft(meetup.placesLeft, settings.language), language: settings.language.rawValue)
            // Public like the page, so that a preview robot's proxy or a CDN keeps it as long.
            return Self.deferredPicture(request, cacheControl: "public, max-age=\(Self.sharePageMaxAge)") { pictures.meetupCard(content, then: $0) }
        }
        router.on(Operations.meetupPageCalendar) { request, context in
            let meetup = try publishedMeetup(slug: try context.parameters.require("slug"))
            let entry = try domain.calendar.entry(meetupID: meetup.id)
            return calendarResponse(CalendarFeedBody(name: meetup.title, entries: [entry], settings: services.calendar).bytes,
                                    request: request, fileName: "meetup-\(meetup.id).ics")
        }
    }

    /// The meetup of a published page.
    /// - Throws: `HTTPError` 404 `meetup_page_not_found` or 410 `meetup_page_unpublished`.
    func publishedMeetup(slug: String) throws -> Meetup {
        switch try domain.meetups.publicPage(slug: Self.slug(slug)) {
        case let .published(meetup, _): return meetup
        case .gone: throw HTTPError(.gone, code: "meetup_page_unpublished", detail: "This meetup's page is no longer published.")
        case .notFound: throw HTTPError(.notFound, code: "meetup_page_not_found", detail: "No meetup page has this link; check that it is complete.")
        }
    }

    /// A slug as given, or "" for one that cannot be one (no database read for junk).
    private static func slug(_ text: String) -> String {
        text.count <= 64 && text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) ? text : ""
    }
}
