import BelayCore
import BelayStorage
import Foundation

/// What a report's subject is in the database: how it is read into a snapshot, whose it is,
/// and how it is hidden and shown again. A `meetup_page` is its meetup (kept by the meetup's
/// id), its snapshot with what the page showed besides.
struct ReportedContent {
    /// The content as a JSON object, as it is now.
    let snapshot: String
    /// The member responsible for it.
    let userID: Int64?

    /// - Throws: `DomainError` `meetup_not_found`, `user_not_found`, `share_page_not_found`.
    static func read(_ type: ReportSubjectType, _ id: String, in db: Database) throws -> ReportedContent {
        var json = JSONOutput()
        switch type {
        case .meetup, .meetupPage:
            guard let meetupID = Int64(id), let meetup = try MeetupRepository.find(id: meetupID, in: db) else {
                throw DomainError(.meetupNotFound, "No meetup has id \(id); report the meetup by the id the app shows", field: "subject_id")
            }
            let hostName = type == .meetupPage && meetup.page?.showsHost == true
                ? try AccountRepository.profile(userID: meetup.hostID, in: db)?.user.displayName : nil
            json.object { json in
                json.member("title", meetup.title)
                json.member("description", meetup.description)
                json.member("place_name", meetup.placeName)
                json.member("address", meetup.address)
                json.member("host_id", meetup.hostID)
                json.member("starts_at", RFC3339.string(from: meetup.startsAt, fraction: .none))
                // A page: what it showed besides, its link and whether it named the host.
                if type == .meetupPage, let page = meetup.page {
                    json.member("page", "/m/\(page.slug)")
                    json.member("page_published", page.isPublished)
                    json.member("host_name", page.showsHost ? hostName : nil)
                }
            }
            return ReportedContent(snapshot: String(decoding: json.bytes, as: UTF8.self), userID: meetup.hostID)
        case .member:
            guard let userID = Int64(id), let profile = try AccountRepository.profile(userID: userID, in: db) else {
                throw DomainError(.userNotFound, "No member has id \(id); report the member by the id the app shows", field: "subject_id")
            }
            json.object { json in
                json.member("handle", profile.user.handle)
                json.member("display_name", profile.user.displayName)
            }
            return ReportedContent(snapshot: String(decoding: json.bytes, as: UTF8.self), userID: userID)
        case .sharePage:
            guard let owner = try ModerationRepository.sharePageOwner(slug: id, in: db),
                  let profile = try AccountRepository.profile(userID: owner.memberID, in: db) else {
                throw DomainError(.sharePageNotFound, "No shared page has the link /s/\(id); check the link", field: "subject_id")
            }
            json.object { json in
                json.member("slug", id)
                json.member("reward_id", owner.rewardID)
                json.member("member_id", owner.memberID)
                json.member("display_name", profile.user.displayName)
            }
            return ReportedContent(snapshot: String(decoding: json.bytes, as: UTF8.self), userID: owner.memberID)
        }
    }

    /// Hides the subject: a meetup leaves lists and its pages answer 410; a share page answers
    /// 410; a member's display name becomes a neutral one they must change.
    /// - Returns: whether it was visible until now (a member's name: whether they exist).
    static func hide(_ type: ReportSubjectType, _ id: String, now: Date, in db: Database) throws -> Bool {
        switch type {
        case .meetup, .meetupPage:
            guard let meetupID = Int64(id) else { return false }
            return try ModerationRepository.hideMeetup(id: meetupID, now: now, in: db)
        case .sharePage:
            return try ModerationRepository.hideSharePage(slug: id, now: now, in: db)
        case .member:
            guard let userID = Int64(id) else { return false }
            return try ModerationRepository.hideMemberName(userID: userID, in: db)
        }
    }

    /// Shows hidden content again (a member's replaced name stays replaced).
    /// - Returns: whether it was hidden.
    static func show(_ type: ReportSubjectType, _ id: String, now: Date, in db: Database) throws -> Bool {
        switch type {
        case .meetup, .meetupPage:
            guard let meetupID = Int64(id) else { return false }
            return try ModerationRepository.showMeetup(id: meetupID, now: now, in: db)
        case .sharePage:
            return try ModerationRepository.showSharePage(slug: id, in: db)
        case .member:
            return false
        }
    }

    /// Whether the subject is hidden now.
    static func isHidden(_ type: ReportSubjectType, _ id: String, now: Date, in db: Database) throws -> Bool {
        switch type {
        case .meetup, .meetupPage:
            return try Int64(id).map { try ModerationRepository.meetupIsHidden(id: $0, in: db) } ?? false
        case .sharePage:
            return try ModerationRepository.sharePageIsWithheld(slug: id, now: now, in: db)
        case .member:
            return false
        }
    }
}
