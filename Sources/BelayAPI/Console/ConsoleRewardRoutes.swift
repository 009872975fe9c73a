import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// A meetup's rewards on the host's pages: who checked in, the hold they earned and a
    /// thumbnail of their sticker, served by the same code as `GET /v1/rewards/{id}/sticker/{hash}.png`
    /// under the console's cookie, with the rule of `RewardService.reward(id:visibleTo:)`.
    func registerConsoleRewardRoutes(on router: OperationRoutes<APIContext>) {
        router.on(Operations.consoleMeetupRewards) { request, context in
            try consolePage(request) { visitor, _ in
                let meetup = try managedMeetup(try context.id(), visitor)
                return try rewardsPage(visitor, meetup)
            }
        }
        router.on(Operations.consoleStickerImage) { request, context in
            try consolePage(request) { visitor, _ in
                // A reward, or a sticker of it, the member may not see answers like a page that does not exist.
                do {
                    let hash = try Self.imageHash(context.parameters)
                    let reward = try domain.rewards.reward(id: try context.id(), visibleTo: visitor.actor)
                    return try rewardImage(.sticker, fileExtension: "png", hash: hash, of: reward, request)
                } catch let error as DomainError where error.reason == .rewardNotFound {
                    throw ConsolePageNotFound()
                } catch let error as HTTPError where error.status == .notFound || error.status == .badRequest {
                    throw ConsolePageNotFound()
                }
            }
        }
    }

    /// The console's address of a reward's sticker, nil while it is being rendered.
    static func consoleStickerPath(_ reward: Reward) -> String? {
        reward.images.map { "/console/rewards/\(reward.id)/sticker/\($0.stickerHash).png" }
    }

    private func rewardsPage(_ visitor: ConsoleVisitor, _ meetup: Meetup) throws -> Response {
        let language = visitor.language
        let word = language.word
        let e = HTMLText.escaped
        let rewards = try domain.rewards.rewards(meetupID: meetup.id, visibleTo: visitor.actor)
        // Names from the attendee list: one query for every row, not one per reward.
        var members: [Int64: (name: String, handle: String)] = [:]
        for attendee in try allAttendees(meetup.id) { members[attendee.attendance.memberID] = (attendee.displayName, attendee.handle) }
        let zone = TimeZone(identifier: meetup.timeZone) ?? presentation.clubZone.zone
        var main = "<div class=\"heading\"><h1>\(e(word(.rewards))): \(e(meetup.title))</h1><div class=\"actions\">"
        main += "<a class=\"button secondary\" href=\"/console/meetups/\(meetup.id)\">\(e(word(.doorList)))</a></div></div>"
        main += "<p class=\"sub\">\(e(meetup.placeName)) · \(e(when(meetup, language)))</p>"
        if rewards.isEmpty {
            main += "<p class=\"empty\">\(e(word(.noRewards)))</p>"
        } else {
            main += "<div class=\"table-wrap\"><table class=\"rewards\"><thead><tr><th scope=\"col\">\(e(word(.sticker)))</th>"
            main += "<th scope=\"col\">\(e(word(.members)))</th><th scope=\"col\">\(e(word(.hold)))</th>"
            main += "<th scope=\"col\">\(e(word(.checkedIn)))</th><th scope=\"col\">\(e(word(.status)))</th></tr></thead><tbody>"
            for reward in rewards {
                let member = members[reward.memberID]
                let name = member?.name ?? "#\(reward.memberID)"
                main += "<tr><td class=\"thumb\">"
                if let path = Self.consoleStickerPath(reward) {
                    main += "<img src=\"\(e(path))\" width=\"72\" height=\"96\" loading=\"lazy\" alt=\"\(e(reward.hold.name)) · \(e(name))\">"
                } else {
                    main += "<span class=\"placeholder\" aria-hidden=\"true\"></span>"
                }
                main += "</td><th scope=\"row\"><span class=\"name\">\(e(name))</span>"
                if let handle = member?.handle { main += " <span class=\"handle\">@\(e(handle))</span>" }
                main += "</th><td>\(e(reward.hold.name))"
                if let milestone = reward.milestone { main += "<span class=\"sub\">\(e(language.milestone(milestone)))</span>" }
                main += "</td><td>\(e(KioskDocument.format(reward.awardedAt, template: "MMMdjmm", zone: zone, locale: language.localeIdentifier)))</td>"
                main += "<td>\(e(rewardState(reward, language)))</td></tr>"
            }
            main += "</tbody></table></div>"
        }
        return Self.htmlPage(ConsoleDocument.page(title: "\(word(.rewards)): \(meetup.title)", language: language, clubName: presentation.clubName,
                                                  viewer: visitor.viewer, section: .meetups, main: main))
    }

    private func rewardState(_ reward: Reward, _ language: SharePageLanguage) -> String {
        if reward.isRevoked { return language.word(.revoked) }
        switch reward.renderStatus {
        case .ready: return language.word(.stickerReady)
        case .failed: return language.word(.renderFailed)
        case .pending: return language.word(.rendering)
        }
    }
}
