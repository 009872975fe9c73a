import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

/// Bar charts drawn on the server as SVG: no script, no style attribute (the page's policy
/// allows none), the numbers in a table beside each for screen readers (the drawing itself is
/// `aria-hidden`, its caption names it).
enum ConsoleShareChart {
    /// One bar.
    struct Bar: Sendable, Equatable {
        let label: String
        let value: Int
    }

    /// Horizontal bars, one a row, with their labels and values written beside them.
    static func svg(_ bars: [Bar], width: Int = 560) -> String {
        let rowHeight = 28, labelWidth = 150, valueWidth = 48
        let height = max(1, bars.count) * rowHeight + 8
        let largest = max(1, bars.map(\.value).max() ?? 1)
        let room = width - labelWidth - valueWidth
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" aria-hidden=\"true\" focusable=\"false\">"
        for (index, bar) in bars.enumerated() {
            let y = 4 + index * rowHeight
            let length = bar.value == 0 ? 0 : max(2, room * bar.value / largest)
            svg += "<text x=\"\(labelWidth - 8)\" y=\(quoted(y + 18)) text-anchor=\"end\" font-size=\"14\" fill=\"#1b1f24\">\(HTMLText.escaped(bar.label))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\(quoted(y + 4)) width=\(quoted(length)) height=\"20\" rx=\"3\" fill=\"#0b57d0\"/>"
            svg += "<text x=\(quoted(labelWidth + length + 6)) y=\(quoted(y + 18)) font-size=\"14\" fill=\"#1b1f24\">\(bar.value)</text>"
        }
        return svg + "</svg>"
    }

    private static func quoted(_ value: Int) -> String { "\"\(value)\"" }

    /// The chart and its table, side by side (stacked on a phone).
    static func figure(title: String, labelHeading: String, valueHeading: String, bars: [Bar], id: String) -> String {
        let e = HTMLText.escaped
        var html = "<div class=\"chart-row\"><figure aria-labelledby=\"\(id)-caption\"><figcaption id=\"\(id)-caption\">\(e(title))</figcaption>"
        html += svg(bars) + "</figure>"
        html += "<table id=\"\(id)-table\"><caption>\(e(title))</caption><thead><tr><th scope=\"col\">\(e(labelHeading))</th>"
        html += "<th scope=\"col\" class=\"number\">\(e(valueHeading))</th></tr></thead><tbody>"
        html += bars.map { "<tr><th scope=\"row\">\(e($0.label))</th><td class=\"number\">\($0.value)</td></tr>" }.joined()
        return html + "</tbody></table></div>"
    }
}

extension APIRoutes {
    /// A meetup's share statistics: shares by day and by target, drawn as charts with their tables.
    func registerConsoleShareRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleShareCharts) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                let statistics = try domain.shares.statistics(meetupID: meetup.id)
                let e = HTMLText.escaped
                let word = visitor.language.word
                var main = "<h1>\(e(word(.shares)))</h1><p class=\"sub\"><a href=\"/console/meetups/\(meetup.id)\">\(e(meetup.title))</a></p>"
                if statistics.isEmpty {
                    main += "<p class=\"empty\">\(e(word(.noShares)))</p>"
                } else {
                    let byDay = ShareStatisticGroup.groups(statistics, by: .day).map { ConsoleShareChart.Bar(label: $0.day ?? "", value: $0.events) }
                    let byTarget = ShareStatisticGroup.groups(statistics, by: .target)
                        .map { ConsoleShareChart.Bar(label: $0.target?.rawValue ?? "", value: $0.events) }
                    main += ConsoleShareChart.figure(title: word(.byDay), labelHeading: word(.day), valueHeading: word(.count),
                                                                                    bars: byDay, id: "by-day")
                    main += ConsoleShareChart.figure(title: word(.byTarget), labelHeading: word(.target),
                                                                                       valueHeading: word(.count), bars: byTarget, id: "by-target")
                }
                return Self.htmlPage(ConsoleDocument.page(title: word(.shares), language: visitor.language, clubName: presentation.clubName,
                                                          viewer: visitor.viewer, section: .meetups, main: main))
            }
        }
    }
}
