import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// The server at a glance, for admins: what `/readyz` checks and what `/metrics` says
    /// about the queues (render jobs, webhook deliveries, notices, reports) and traffic, each
    /// in the words of its metric's help text.
    func registerConsoleServerRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleServer) { request, _ in
            try consolePage(request) { visitor, _ in
                guard visitor.isAdmin else { throw ConsolePageNotFound() }
                return serverPage(visitor)
            }
        }
    }

    /// The metric families the page shows, in this order.
    static let glanceMetrics = ["belay_render_queue_jobs", "belay_render_jobs", "belay_webhook_deliveries", "belay_push_notices",
                                "belay_reports_open", "belay_reports_oldest_open_age_seconds", "belay_check_ins_total",
                                "belay_share_events_total", "belay_http_requests_in_flight", "belay_http_requests_suspended"]

    /// A metric's samples read back from the Prometheus text: its help, and each sample's labels and value.
    struct GlanceMetric: Equatable {
        var name: String
        var help = ""
        var samples: [(labels: String, value: String)] = []

        static func == (lhs: GlanceMetric, rhs: GlanceMetric) -> Bool {
            lhs.name == rhs.name && lhs.help == rhs.help && lhs.samples.map { "\($0.labels)=\($0.value)" } == rhs.samples.map { "\($0.labels)=\($0.value)" }
        }
    }

    /// The families `names` of the exposition `text` (others, and histogram buckets, left out).
    static func glance(_ text: String, names: [String]) -> [GlanceMetric] {
        var found: [String: GlanceMetric] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst("# HELP ".count)
                guard let space = rest.firstIndex(of: " ") else { continue }
                let name = String(rest[..<space])
                guard names.contains(name) else { continue }
                found[name, default: GlanceMetric(name: name)].help = String(rest[rest.index(after: space)...])
            } else if !line.hasPrefix("#"), let space = line.lastIndex(of: " ") {
                let series = line[..<space]
                let name = String(series.prefix { $0 != "{" })
                guard names.contains(name) else { continue }
                let labels = series.dropFirst(name.count).trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
                found[name, default: GlanceMetric(name: name)].samples.append((labels, String(line[line.index(after: space)...])))
            }
        }
        return names.compactMap { found[$0] }
    }

    private func serverPage(_ visitor: ConsoleVisitor) -> Response {
        let e = HTMLText.escaped
        let word = visitor.language.word
        let readiness = services.readiness()
        var main = "<h1>\(e(word(.server)))</h1>"
        main += "<p class=\"\(readiness.isReady ? "notice" : "error")\" role=\"status\">/readyz: \(readiness.isReady ? "ready" : "not ready")</p>"
        main += "<div class=\"table-wrap\"><table><caption>/readyz</caption><thead><tr><th scope=\"col\">\(e(word(.check)))</th><th scope=\"col\">\(e(word(.status)))</th></tr></thead><tbody>"
        main += readiness.checks.map { "<tr><th scope=\"row\">\(e($0.name))</th><td>\(e($0.status))</td></tr>" }.joined()
        main += "</tbody></table></div>"
        main += "<div class=\"table-wrap\"><table><caption>/metrics</caption><thead><tr><th scope=\"col\">\(e(word(.description)))</th>"
        main += "<th scope=\"col\">\(e(word(.labels)))</th><th scope=\"col\" class=\"number\">\(e(word(.value)))</th></tr></thead><tbody>"
        for metric in Self.glance(services.metricsText() + moderationMetricsText(), names: Self.glanceMetrics) {
            for sample in metric.samples {
                main += "<tr><th scope=\"row\">\(e(metric.help.isEmpty ? metric.name : metric.help))<span class=\"sub\">\(e(metric.name))</span></th>"
                main += "<td>\(e(sample.labels))</td><td class=\"number\">\(e(sample.value))</td></tr>"
            }
        }
        main += "</tbody></table></div>"
        return Self.htmlPage(ConsoleDocument.page(title: word(.server), language: visitor.language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .server, main: main))
    }
}
