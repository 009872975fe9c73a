import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// Safety where strangers meet: the member's blocks and bans, reports and their outcome,
    /// the club's terms, and the moderators' queue, actions and log.
    func registerSafetyRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.blockMember) { _, context in
            let caller = context.caller
            let id = try context.id("user_id")
            let made = try domain.safety.block(id, by: caller.userID)
            return .api(BlockStateBody(userID: id, active: true, name: "blocked"), status: made ? .created : .ok, headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.unblockMember) { _, context in
            let caller = context.caller
            let id = try context.id("user_id")
            try domain.safety.unblock(id, by: caller.userID)
            return .api(BlockStateBody(userID: id, active: false, name: "blocked"), headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.listBlocks) { _, context in
            let caller = context.caller
            return .api(ListBody(items: try domain.safety.blocks(of: caller.userID).map(BlockedMemberBody.init), nextCursor: nil),
                        headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.banMember) { _, context in
            let caller = context.caller
            let id = try context.id("user_id")
            let made = try domain.safety.ban(id, by: caller.userID)
            return .api(BlockStateBody(userID: id, active: true, name: "banned"), status: made ? .created : .ok, headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.unbanMember) { _, context in
            let caller = context.caller
            let id = try context.id("user_id")
            try domain.safety.unban(id, by: caller.userID)
            return .api(BlockStateBody(userID: id, active: false, name: "banned"), headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.listBans) { _, context in
            let caller = context.caller
            return .api(ListBody(items: try domain.safety.bans(of: caller.userID).map(BlockedMemberBody.init), nextCursor: nil),
                        headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.fileReport) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: ReportRequest.self)
            let filing = try domain.reports.file(try body.report(), by: caller.userID)
            if filing.hidSubject { sharePageCache.removeAll() }
            return .api(ReportBody(report: filing.report), status: filing.created ? .created : .ok, headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.listMyReports) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 50, maximum: 200)
            let reports = try domain.reports.reports(of: caller.userID, limit: page.limit, cursor: page.cursor)
            return .api(ListBody(items: reports.items.map(ReportBody.init), nextCursor: reports.nextCursor), headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.acceptTerms) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: TermsRequest.self)
            let accepted = try domain.safety.acceptTerms(userID: caller.userID, version: body.version)
            termsGate.remember(caller.userID)
            return .api(TermsAcceptanceBody(version: body.version, acceptedAt: accepted), headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.moderationQueue) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 50, maximum: 200)
            let subjects = try domain.moderation.queue(limit: page.limit, by: caller.actor)
            return .api(ListBody(items: subjects.map(ReportedSubjectBody.init), nextCursor: nil), headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.moderate) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: ModerationActionRequest.self)
            let action = try domain.moderation.act(try body.request(), by: caller.actor)
            // A suspended member's cached authentications and a hidden page's cached answer go at once.
            tokenCache.removeAll()
            sharePageCache.removeAll()
            return .api(ModerationActionBody(action: action), status: .created, headers: ["Cache-Control": "no-store"])
        }
        routes.on(Operations.moderationAudit) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 50, maximum: 200)
            var subject: (ReportSubjectType, String)?
            if let type = try request.query("subject_type", oneOf: ReportSubjectType.self) {
                guard let id = request.query("subject_id"), !id.isEmpty else {
                    throw HTTPError(.badRequest, code: "invalid_query_parameter", detail: "`subject_type` goes with `subject_id`; give both or neither.",
                                    extensions: ["parameter": "subject_id"])
                }
                subject = (type, id)
            }
            let actions = try domain.moderation.audit(limit: page.limit, cursor: page.cursor, subject: subject, by: caller.actor)
            return .api(ListBody(items: actions.items.map(ModerationActionBody.init), nextCursor: actions.nextCursor),
                        headers: ["Cache-Control": "no-store"])
        }
    }
}

extension APIRoutes {
    /// The report queue for `/metrics`: how many reports are open and how long the oldest has
    /// waited, so an operator can alert on a report older than a day. Empty when the database
    /// cannot be read (the rest of the metrics still answer).
    func moderationMetricsText() -> String {
        guard let open = try? domain.moderation.openReports() else { return "" }
        var writer = PrometheusTextWriter()
        writer.family("belay_reports_open", help: "Reports waiting for a moderator, now.", type: .gauge)
        writer.sample("belay_reports_open", open.count)
        writer.family("belay_reports_oldest_open_age_seconds", help: "Seconds the oldest open report has waited (0 when none).", type: .gauge)
        writer.sample("belay_reports_oldest_open_age_seconds", open.oldestAge.rounded())
        return writer.text
    }
}
