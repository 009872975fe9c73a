import BelayDomain
import BelayHTTP
import Foundation

extension APIRoutes {
    /// The share payload, share events and share statistics.
    func registerShareRoutes(on routes: RouteGroup<APIContext>) {
        routes.get("/v1/rewards/{id}/share") { _, context in
            let reward = try readableReward(context)
            return .api(SharePayloadBody(reward: reward, presentation: presentation), headers: ["Cache-Control": "no-store"])
        }

        routes.post("/v1/rewards/{id}/share-events") { request, context in
            let caller = try context.caller()
            let id = try context.id()
            let body = try request.decodeJSON(as: ShareEventRequest.self)
            let result = try domain.shares.record(NewShareEvent(
                rewardID: id, target: body.target, activityType: body.activityType, completed: body.completed,
                error: body.error, clientEventID: body.clientEventID), by: caller.actor)
            services.metrics.shareEvent(target: result.event.target, isRepeat: result.isRepeat)
            return .api(ShareEventBody(event: result.event, presentation: presentation), status: result.isRepeat ? .ok : .created)
        }

        routes.get("/v1/stats/shares") { request, context in
            let caller = try context.requireRole([.host, .admin], to: "see share statistics")
            let page = try request.pagination(defaultLimit: 100, maximum: 500)
            let meetupID = try request.query("meetup_id", as: Int64.self)
            let from = try request.query("from", asDate: ())
            let to = try request.query("to", asDate: ())
            if let meetupID, caller.role != .admin {
                try requireManager(of: try domain.meetups.meetup(id: meetupID), caller, to: "see its share statistics")
            }
            var statistics = try domain.shares.statistics(meetupID: meetupID, from: from, to: to)
            if caller.role != .admin {
                var hosted: [Int64: Bool] = [:]
                statistics = try statistics.filter { statistic in
                    if let known = hosted[statistic.meetupID] { return known }
                    let mine = try domain.meetups.isManaged(meetupID: statistic.meetupID, by: caller.actor)
                    hosted[statistic.meetupID] = mine
                    return mine
                }
            }
            let offset = try page.cursor.map(StatisticsCursor.offset(from:)) ?? 0
            let slice = statistics.dropFirst(offset).prefix(page.limit)
            let next = offset + slice.count < statistics.count ? StatisticsCursor.encode(offset: offset + slice.count) : nil
            return .api(ListBody(items: slice.map(ShareStatisticBody.init), nextCursor: next))
        }
    }
}

/// The cursor of the statistics list: the position of the next row, opaque to clients.
enum StatisticsCursor {
    static let prefix = "share-stats:"

    static func encode(offset: Int) -> String {
        Data((prefix + String(offset)).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// - Throws: `HTTPError` 400 `invalid_cursor` when the text is not a cursor this list gave out.
    static func offset(from text: String) throws -> Int {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8),
              decoded.hasPrefix(prefix), let offset = Int(decoded.dropFirst(prefix.count)), offset >= 0 else {
            throw HTTPError(.badRequest, code: RefusalReason.invalidCursor.rawValue,
                            detail: "The cursor is not one this statistics list gave out; start again without a cursor.",
                            extensions: ["parameter": "cursor", "reason": .string(RefusalReason.invalidCursor.rawValue)])
        }
        return offset
    }
}
