import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// The share payload, share events and share statistics.
    func registerShareRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.sharePayload) { _, context in
            let caller = context.caller
            let reward = try readableReward(context)
            // Reading never publishes: the page's link is there once its member published it.
            let slug = try domain.sharePages.slug(for: reward)
            // The text is in the member's own language when they chose one; the club's otherwise.
            let locale = reward.memberID == caller.userID ? try? domain.accounts.profile(userID: reward.memberID).locale : nil
            return .api(SharePayloadBody(reward: reward, presentation: presentation, sharePageSlug: slug,
                                         callerMayPublish: caller.userID == reward.memberID, memberLocale: locale?.rawValue),
                        headers: ["Cache-Control": "no-store"])
        }

        // The reward's public page: published by its member on purpose, taken down by them (or an admin).
        routes.on(Operations.publishSharePage) { _, context in
            let caller = context.caller
            let reward = try readableReward(context)
            let (slug, published) = try domain.sharePages.publish(reward, by: caller.actor)
            return .api(SharePageBody(rewardID: reward.id, slug: slug, showsName: try domain.sharePages.showsName(userID: reward.memberID),
                                      presentation: presentation),
                        status: published ? .created : .ok, headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.unpublishSharePage) { _, context in
            let caller = context.caller
            let reward = try readableReward(context)
            if try domain.sharePages.unpublish(reward, by: caller.actor) {
                // This node's rendered copy goes now; other nodes' within their cache lifetime.
                sharePageCache.removeAll()
            }
            return Response(status: .noContent)
        }

        routes.on(Operations.recordShareEvent) { request, context in
            let caller = context.caller
            let id = try context.id()
            let body = try request.decodeJSON(as: ShareEventRequest.self)
            let result = try domain.shares.record(NewShareEvent(
                rewardID: id, target: body.target, activityType: body.activityType, completed: body.completed,
                error: body.error, clientEventID: body.clientEventID), by: caller.actor)
            services.metrics.shareEvent(target: result.event.target, isRepeat: result.isRepeat)
            return .api(ShareEventBody(event: result.event, presentation: presentation), status: result.isRepeat ? .ok : .created)
        }

        routes.on(Operations.shareStatistics) { request, context in
            let meetupID = try request.query("meetup_id", as: Int64.self)
            // A member who hosts a meetup (members create their own) sees its counts by naming it;
            // every meetup they host at once is for the host role and admins.
            let caller = meetupID == nil ? try context.requireRole([.host, .admin], to: "see share statistics without naming a meetup_id they host")
                                         : context.caller
            let page = try request.pagination(defaultLimit: 100, maximum: 500)
            let from = try request.query("from", asDate: ())
            let to = try request.query("to", asDate: ())
            let grouping = try request.query("by", oneOf: ShareStatisticGrouping.self)
            if let meetupID, caller.role != .admin {
                try requireManager(of: try domain.meetups.meetup(id: meetupID), caller, to: "see its share statistics")
            }
            let hostID = caller.role == .admin ? nil : caller.userID
            if let grouping {
                // Summed per day, target or meetup: every row of the range goes into one page.
                guard page.cursor == nil else {
                    throw HTTPError.badRequest(code: "invalid_query_parameter",
                                               detail: "Query parameter `cursor` does not go with `by`: summed statistics come in one page.",
                                               extensions: ["parameter": "cursor"])
                }
                var statistics: [ShareStatistic] = []
                var after = ShareStatisticKey.start
                while true {
                    let part = try domain.shares.statistics(meetupID: meetupID, from: from, to: to, hostID: hostID, after: after, limit: 500)
                    statistics += part.items
                    guard let next = part.next else { break }
                    after = next
                }
                return .api(ListBody(items: ShareStatisticGroup.groups(statistics, by: grouping).map(ShareStatisticBody.init),
                                     nextCursor: nil))
            }
            // Aggregated by the database, a host's meetups only: the cost follows the page.
            let statistics = try domain.shares.statistics(
                meetupID: meetupID, from: from, to: to, hostID: hostID,
                after: try page.cursor.map(StatisticsCursor.key(from:)) ?? .start, limit: page.limit)
            return .api(ListBody(items: statistics.items.map { ShareStatisticBody(ShareStatisticGroup($0)) },
                                 nextCursor: statistics.next.map(StatisticsCursor.encode(after:))))
        }
    }
}

/// The cursor of the statistics list: the last row's meetup, day and target, opaque to clients.
enum StatisticsCursor {
    static let prefix = "share-stats:v2:"

    static func encode(after key: ShareStatisticKey) -> String {
        Data((prefix + "\(key.meetupID):\(key.day):\(key.target)").utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// - Throws: `HTTPError` 400 `invalid_cursor` when the text is not a cursor this list gave out.
    static func key(from text: String) throws -> ShareStatisticKey {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8), decoded.hasPrefix(prefix) else {
            throw invalid()
        }
        let parts = decoded.dropFirst(prefix.count).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let meetupID = Int64(parts[0]), meetupID >= 1,
              parts[1].wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, ShareTarget(rawValue: String(parts[2])) != nil else {
            throw invalid()
        }
        return ShareStatisticKey(meetupID: meetupID, day: String(parts[1]), target: String(parts[2]))
    }

    private static func invalid() -> HTTPError {
        HTTPError(.badRequest, code: RefusalReason.invalidCursor.rawValue,
                  detail: "The cursor is not one this statistics list gave out; start again without a cursor.",
                  extensions: ["parameter": "cursor", "reason": .string(RefusalReason.invalidCursor.rawValue)])
    }
}
