import BelayCore
import BelayDomain
import BelayRepresentations
import Foundation

/// A meetup's door list made once in one language: its counts, a version that changes whenever
/// a row or a count would, and every attendee's row as HTML. The rows carry nothing of the
/// visitor (their buttons submit the page's forms, which carry the form token), so one made
/// list serves every host of the meetup until something changes (the response cache's rule).
struct ConsoleDoorList: Sendable {
    /// The rows a page shows at most: a host at the door searches rather than scrolls.
    static let pageSize = 50

    /// One attendee's row, and what searching matches it by (name and handle, lower-cased).
    struct Row: Sendable {
        let search: String
        let html: String
    }

    let version: String
    let counts: String
    let rows: [Row]
    /// The row shown when nobody has joined.
    let emptyRow: String

    /// What the list costs the response cache, about.
    var bytes: Int { rows.reduce(counts.utf8.count + 64) { $0 + $1.html.utf8.count + $1.search.utf8.count } }

    /// The form ids the rows' buttons submit (the page holds one form of each, with the token).
    static func formID(_ action: APIRoutes.DoorAction) -> String { "door-\(action.rawValue)" }

    /// The rows matching `query` (name or handle, any case), and the one page of them asked for
    /// (from 1; a page past the end shows the last).
    func view(query: String, page: Int) -> (rows: ArraySlice<Row>, page: Int, pages: Int, matching: Int) {
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        let matching = needle.isEmpty ? rows : rows.filter { $0.search.contains(needle) }
        let pages = max(1, (matching.count + Self.pageSize - 1) / Self.pageSize)
        let shown = min(max(1, page), pages)
        let start = (shown - 1) * Self.pageSize
        let slice = matching[min(start, matching.count)..<min(start + Self.pageSize, matching.count)]
        return (ArraySlice(slice), shown, pages, matching.count)
    }

    /// Makes the list of `meetup` from its attendees, in `language`; `zone` writes offer times.
    init(meetup: Meetup, attendees: [Attendee], language: SharePageLanguage, zone: TimeZone) {
        let e = HTMLText.escaped
        let word = language.word
        var versionText = "\(meetup.status.rawValue)|\(meetup.goingCount)|\(meetup.checkedInCount)|\(meetup.waitlistCount)"
        var counts = "\(language.checkedIn(meetup.checkedInCount, of: meetup.goingCount)) · \(word(.going)) \(meetup.goingCount) / \(meetup.capacity) · \(word(.waitlist)) \(meetup.waitlistCount)"
        if let noShows = meetup.noShows { counts += " · \(word(.noShows)) \(noShows)" }
        var rows: [Row] = []
        rows.reserveCapacity(attendees.count)
        for attendee in attendees {
            let member = attendee.attendance.memberID
            let status = attendee.attendance.status
            versionText += "|\(member):\(status.rawValue):\(attendee.displayName)"
            let searchText = (attendee.displayName + " " + attendee.handle).lowercased()
            var html = "<tr data-search=\"\(e(searchText))\" data-member=\"\(member)\" data-status=\"\(status.rawValue)\">"
            html += "<th scope=\"row\"><span class=\"name\">\(e(attendee.displayName))</span> <span class=\"handle\">@\(e(attendee.handle))</span></th>"
            var statusText = language.status(status)
            if let position = attendee.attendance.waitlistPosition, status == .waitlisted { statusText += " #\(position)" }
            if let offer = attendee.attendance.offerExpiresAt {
                statusText += " · \(word(.waitlistOffers)) ~" + KioskDocument.format(offer, template: "jmm", zone: zone, locale: language.localeIdentifier)
            }
            if meetup.status == .completed && status == .going { statusText = word(.noShows) }
            html += "<td><span class=\"status \(status.rawValue)\">\(e(statusText))</span></td><td class=\"row-actions\">"
            let label = e("\(attendee.displayName) (@\(attendee.handle))")
            func button(_ action: APIRoutes.DoorAction, _ text: String, _ style: String) -> String {
                "<button type=\"submit\" form=\"\(Self.formID(action))\" name=\"user_id\" value=\"\(member)\" class=\"\(style)\" aria-label=\"\(e(text)): \(label)\">\(e(text))</button>"
            }
            switch status {
            case .going: html += button(.checkIn, word(.checkIn), "primary") + button(.remove, word(.remove), "secondary")
            case .checkedIn: html += button(.undo, word(.undo), "secondary")
            case .waitlisted: html += button(.remove, word(.remove), "secondary")
            case .cancelled: break
            }
            html += "</td></tr>"
            rows.append(Row(search: searchText, html: html))
        }
        self.version = String(ContentDigest.hex(of: Array(versionText.utf8)).prefix(16))
        self.counts = counts
        self.rows = rows
        emptyRow = "<tr><td colspan=\"3\">\(e(word(.noAttendees)))</td></tr>"
    }

    /// The rows of one view as HTML (the empty row when none match).
    static func html(_ rows: ArraySlice<Row>, empty: String) -> String {
        guard !rows.isEmpty else { return empty }
        var html = ""
        html.reserveCapacity(rows.reduce(0) { $0 + $1.html.utf8.count })
        for row in rows { html += row.html }
        return html
    }
}
