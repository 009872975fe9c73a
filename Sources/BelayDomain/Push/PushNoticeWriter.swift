import BelayCore
import BelayStorage
import Foundation

/// Writes push notices into the outbox inside the transaction of the change that causes them:
/// one `push_notices` row per device of each member to tell, in the language of the device
/// (or the member, or the club), unless the member switched that kind off. A member with no
/// device costs one small query and writes nothing. Each row has a collapse id made from what
/// it is about, so the same notice is never queued twice for a device.
///
/// It subscribes to the domain's `ChangeEvent`s beside the webhook emitter; `PushService`
/// calls it directly for the notices the clock brings (reminders, check-in open, an offer
/// running out, a project ending, `belay push test`).
public struct PushNoticeWriter: ChangeSubscriber {
    public let policy: PushPolicy

    public init(policy: PushPolicy) {
        self.policy = policy
    }

    func changed(_ event: ChangeEvent, now: Date, in db: Database) throws {
        switch event {
        case let .attendanceJoined(_, memberID, meetupID, startsAt, going):
            if going { try caughtUp(memberID: memberID, meetupID: meetupID, startsAt: startsAt, now: now, in: db) }
        case let .attendancePromoted(promoted, startsAt, claimedOffer):
            // A member claiming an offer knows already; one given a place at once is told.
            if !claimedOffer { try attendance(.promoted, id: promoted.id, now: now, in: db) }
            try caughtUp(memberID: promoted.memberID, meetupID: promoted.meetupID, startsAt: startsAt, now: now, in: db)
        case .attendanceLeft, .checkedIn, .checkInUndone, .seriesCreated, .meetupPageChanged, .meetupCompleted, .accountDeleted, .reportFiled,
             .contentHidden, .memberSuspended:
            break
        case let .waitlistOffered(attendanceID): try attendance(.offer, id: attendanceID, now: now, in: db)
        case let .offerExpired(attendanceID): try attendance(.offerExpired, id: attendanceID, now: now, in: db)
        case let .meetupCreated(meetup, ended): if !ended { try newMeetup(meetup, now: now, in: db) }
        case let .meetupUpdated(meetup, timeOrPlaceChanged): if timeOrPlaceChanged { try self.meetup(.changed, meetup, now: now, in: db) }
        case let .meetupCancelled(meetup, sentHome): try self.meetup(.cancelled, meetup, to: .members(sentHome), now: now, in: db)
        case let .rewardReady(rewardID): try rewardReady(id: rewardID, now: now, in: db)
        case let .ticksLogged(memberID, created, preferences): try personalBests(created, memberID: memberID, preferences: preferences, now: now, in: db)
        case let .moderated(actionID, action, memberID, closedReports, rule, appealAddress):
            // The reporters hear the outcome; the member hears what was done, the rule and where to appeal.
            try reportOutcome(reportIDs: closedReports, action: action, now: now, in: db)
            if [.warn, .suspend, .hide].contains(action), let memberID {
                try moderation(memberID: memberID, actionID: actionID, action: action, rule: rule, appealAddress: appealAddress, now: now, in: db)
            }
        }
    }

    /// Tells a waitlisted member about their place: promoted, offered, warned, or the offer ended.
    func attendance(_ notice: AttendanceNotice, id attendanceID: Int64, now: Date, in db: Database) throws {
        guard let attendance = try AttendanceRepository.find(id: attendanceID, in: db),
              let meetup = try MeetupRepository.find(id: attendance.meetupID, in: db) else { return }
        let offerEnds = attendance.offerExpiresAt
        let seconds = Int64((offerEnds ?? now).timeIntervalSince1970.rounded(.down))
        let (collapseID, expiresAt): (String, Date) = switch notice {
        case .offer: ("offer-a\(attendanceID)-\(seconds)", offerEnds ?? meetup.startsAt)
        case .offerExpiring: ("offer-ending-a\(attendanceID)-\(seconds)", offerEnds ?? meetup.startsAt)
        case .offerExpired: ("offer-ended-a\(attendanceID)", min(meetup.startsAt, now.addingTimeInterval(3_600)))
        case .promoted: ("promoted-a\(attendanceID)", meetup.startsAt)
        }
        var facts = Self.facts(meetup)
        if notice == .offer || notice == .offerExpiring { facts[instant: .offerEndsAt] = offerEnds }
        if notice == .offerExpiring { facts[number: .warningMinutes] = policy.offerWarningMinutes }
        try queue(notice.kind, to: .member(attendance.memberID), collapseID: collapseID, expiresAt: expiresAt, now: now, in: db) { _ in
            (facts, [("meetup_id", .int(meetup.id))], "/meetups/\(meetup.id)", nil)
        }
    }

    /// Tells the members going to (and waiting for) a meetup that it changed, or reminds those
    /// going that it starts soon or that check-in is open.
    func meetup(_ notice: MeetupNotice, _ meetup: Meetup, now: Date, in db: Database) throws {
        let statuses = notice == .changed ? "'going', 'waitlisted'" : "'going'"
        try self.meetup(notice, meetup, to: .attendeesOf(meetup.id, statuses: statuses), now: now, in: db)
    }

    /// Catches up a member who became `going` after the meetup's reminder or check-in-open
    /// notice went to the others: the member's devices get it now (the same collapse id, so
    /// nobody else is told twice). Costs one lookup of the schedule's marks.
    func caughtUp(memberID: Int64, meetupID: Int64, startsAt: Date, now: Date, in db: Database) throws {
        guard !policy.platforms.isEmpty, startsAt > now else { return }
        let scheduled: [MeetupNotice] = [.reminder, .checkInOpen]
        let marked = try db.query(
            "SELECT kind FROM push_schedule_marks WHERE kind IN (?, ?) AND subject_id = ? AND due_at = ?",
            scheduled.map(\.kind.rawValue) + [meetupID, startsAt]) { try $0.get("kind", as: String.self) }
        let notices = scheduled.filter { marked.contains($0.kind.rawValue) }
        guard !notices.isEmpty, let meetup = try MeetupRepository.find(id: meetupID, in: db) else { return }
        for notice in notices { try self.meetup(notice, meetup, to: .member(memberID), now: now, in: db) }
    }

    private func meetup(_ notice: MeetupNotice, _ meetup: Meetup, to recipients: Recipients, now: Date, in db: Database) throws {
        let starts = Int64(meetup.startsAt.timeIntervalSince1970.rounded(.down))
        let (collapseID, expiresAt): (String, Date) = switch notice {
        case .reminder: ("reminder-m\(meetup.id)-\(starts)", meetup.startsAt)
        case .checkInOpen: ("check-in-m\(meetup.id)-\(starts)", meetup.endsAt)
        case .cancelled: ("cancelled-m\(meetup.id)", meetup.startsAt)
        case .changed: ("changed-m\(meetup.id)-\(now.millisecondsSince1970)", meetup.startsAt)
        }
        let facts = Self.facts(meetup)
        try queue(notice.kind, to: recipients, collapseID: collapseID, expiresAt: expiresAt, now: now, in: db) { _ in
            (facts, [("meetup_id", .int(meetup.id))], "/meetups/\(meetup.id)", nil)
        }
    }

    /// Tells the followers of a new meetup's gym and host: one notice per member per gym (or
    /// host) per day in the meetup's zone; a later one that day is folded and counted in the
    /// next notice. Never the host, never a member blocked either way, never for a private meetup.
    func newMeetup(_ meetup: Meetup, now: Date, in db: Database) throws {
        guard meetup.visibility == .public, meetup.status == .scheduled, !policy.platforms.isEmpty else { return }
        let zone = TimeZone(identifier: meetup.timeZone) ?? .gmt
        let today = CalendarDay(now, in: zone).description
        var told = Set<Int64>()
        for follower in try FollowRepository.followersToTell(of: meetup, in: db) where told.insert(follower.userID).inserted {
            if follower.notifiedOn == today {
                try FollowRepository.fold(userID: follower.userID, follower.subject, in: db)
                continue
            }
            try FollowRepository.markNotified(userID: follower.userID, follower.subject, on: today, in: db)
            var facts = Self.facts(meetup)
            facts[number: .placesLeft] = meetup.placesLeft
            facts[number: .folded] = Int(follower.folded)
            try queue(.newMeetup, to: .member(follower.userID), collapseID: "new-meetup-m\(meetup.id)-u\(follower.userID)",
                      expiresAt: meetup.startsAt, now: now, in: db) { _ in
                (facts, [("meetup_id", .int(meetup.id))], "/meetups/\(meetup.id)", nil)
            }
        }
    }

    /// Tells a member their sticker is ready, with its URL for the notification to show.
    func rewardReady(id rewardID: Int64, now: Date, in db: Database) throws {
        guard let reward = try RewardRepository.find(id: rewardID, in: db), !reward.isRevoked, let images = reward.images else { return }
        let meetup = NoticeFacts(meetupTitle: reward.meetupTitle, placeName: reward.placeName, startsAt: reward.meetupStartsAt,
                                 timeZone: reward.meetupTimeZone)
        let image = policy.publicBaseURL + "/v1/rewards/\(rewardID)/sticker/\(images.stickerHash).png"
        try queue(.rewardReady, to: .member(reward.memberID), collapseID: "ready-r\(rewardID)", expiresAt: now.addingTimeInterval(86_400),
                  now: now, in: db) { locale in
            var facts = meetup
            facts[text: .holdName] = policy.holdNames.name(of: reward.hold, locale: locale.rawValue)
            return (facts, [("reward_id", .int(rewardID)), ("meetup_id", .int(reward.meetupID))], "/rewards/\(rewardID)", image)
        }
    }

    /// Tells the member (when they switched it on) of each axis's hardest new send that is
    /// harder than every send they logged before. Only a send of the last day is news: an old
    /// tick logged late is history, and a member's very first send beats nothing. The member's
    /// earlier sends are read only when the notice would reach one of their devices: for most
    /// members (the kind is off by default) a batch reads none.
    private func personalBests(_ created: [Tick], memberID: Int64, preferences: LogbookPreferences, now: Date, in db: Database) throws {
        let recent = created.filter { $0.style.topped && $0.climbedAt > now.addingTimeInterval(-86_400) }
        guard let firstNew = created.map(\.id).min(), !recent.isEmpty,
              try reaches(.personalBest, memberID: memberID, now: now, in: db) else { return }
        for axis in GradeAxis.allCases {
            let order: (Tick, Tick) -> Bool = { ($0.range.lowest, $0.range.highest) < ($1.range.lowest, $1.range.highest) }
            guard let best = recent.filter({ $0.range.axis == axis }).max(by: order) else { continue }
            // Ticks are numbered in the order they are logged: every earlier one has a lower id.
            let before = try db.queryOne("""
                SELECT max(score_min) AS best FROM ticks WHERE user_id = ? AND axis = ? AND style <> 'attempt' AND id < ?
                """, [memberID, axis.rawValue, firstNew]) { try $0.get("best", as: Int64?.self) } ?? nil
            guard let before, best.range.lowest > Int(before) else { continue }
            let grade = GradeTable.display(best.range, from: best.gradeScale, in: preferences.scale(axis))
            try personalBest(best, grade: grade, memberID: memberID, now: now, in: db)
        }
    }

    /// Whether a notice of `kind` to the member would reach any device: push is set up for a
    /// platform they have a device on, and they did not switch the kind off (or, for a kind
    /// that is off by default, switched it on). Lets a caller skip reading what only the
    /// notice needs.
    func reaches(_ kind: NoticeKind, memberID: Int64, now: Date, in db: Database) throws -> Bool {
        guard !policy.platforms.isEmpty else { return false }
        return try !DeviceRepository.recipients(.member(memberID), kind: kind, platforms: policy.platforms, now: now, in: db).isEmpty
    }

    /// Tells a member who switched it on that `tick` is their hardest send yet on its axis
    /// ("your first V5 send"), the grade in their own scale. One notice per grade and axis,
    /// however often it is logged again.
    private func personalBest(_ tick: Tick, grade: String, memberID: Int64, now: Date, in db: Database) throws {
        let gym = try tick.gymID.flatMap { try GymRepository.find(id: $0, in: db) }
        try queue(.personalBest, to: .member(memberID), collapseID: "best-u\(memberID)-\(tick.range.axis.rawValue)-\(tick.range.lowest)",
                  expiresAt: now.addingTimeInterval(86_400), now: now, in: db) { locale in
            var facts = NoticeFacts()
            facts[text: .grade] = grade
            facts[text: .gymName] = gym?.name(in: locale.rawValue)
            return (facts, [("tick_id", .int(tick.id))], "/me/logbook", nil)
        }
    }

    /// Tells a member that a problem they tried and have not sent comes down on `removalDay`.
    func projectEnding(_ problem: Problem, memberID: Int64, removalDay: CalendarDay, now: Date, in db: Database) throws {
        guard let gym = try GymRepository.find(id: problem.gymID, in: db) else { return }
        let zone = TimeZone(identifier: gym.timeZone) ?? .gmt
        let endOfRemovalDay = Date(timeIntervalSince1970: Double(removalDay.adding(days: 1).daysSinceEpoch) * 86_400 - Double(zone.secondsFromGMT(for: now)))
        try queue(.projectEnding, to: .member(memberID), collapseID: "project-p\(problem.id)-u\(memberID)", expiresAt: endOfRemovalDay,
                  now: now, in: db) { locale in
            var facts = NoticeFacts()
            facts[text: .problem] = problem.name ?? "\(problem.wall) · \(problem.holdColour) \(problem.grade)"
            facts[text: .gymName] = gym.name(in: locale.rawValue)
            facts[text: .removalDay] = removalDay.description
            return (facts, [("problem_id", .int(problem.id)), ("gym_id", .int(gym.id))], "/gyms/\(gym.id)/problems/\(problem.id)", nil)
        }
    }

    /// Tells each reporter of the closed reports what the moderators did (never who else reported).
    func reportOutcome(reportIDs: [Int64], action: ModerationActionKind, now: Date, in db: Database) throws {
        for (reporterID, reportID) in try ReportRepository.reporters(of: reportIDs, in: db) {
            try queue(.reportOutcome, to: .member(reporterID), collapseID: "report-\(reportID)", expiresAt: now.addingTimeInterval(7 * 86_400),
                      now: now, in: db) { _ in
                var facts = NoticeFacts()
                facts[text: .action] = action.rawValue
                return (facts, [("report_id", .int(reportID))], "/reports", nil)
            }
        }
    }

    /// Tells a member that the moderators warned them, suspended them or hid what they wrote,
    /// with the rule and where to appeal.
    func moderation(memberID: Int64, actionID: Int64, action: ModerationActionKind, rule: String, appealAddress: String?, now: Date,
                    in db: Database) throws {
        try queue(.moderation, to: .member(memberID), collapseID: "moderation-\(actionID)", expiresAt: now.addingTimeInterval(7 * 86_400),
                  now: now, in: db) { _ in
            var facts = NoticeFacts()
            facts[text: .action] = action.rawValue
            facts[text: .rule] = rule
            facts[text: .appealAddress] = appealAddress
            return (facts, [("action", .string(action.rawValue))], "/", nil)
        }
    }

    /// Tells one member a notice of `kind` told directly, not caused by a change (a test
    /// notice, or a kind declared outside Belay's own).
    func tell(_ kind: NoticeKind, memberID: Int64, collapseID: String, expiresAt: Date, path: String, ids: [(String, JSONValue)],
              now: Date, in db: Database, facts: (MemberLocale) -> NoticeFacts) throws -> [Int64] {
        try queue(kind, to: .member(memberID), collapseID: collapseID, expiresAt: expiresAt, now: now, in: db) { locale in
            (facts(locale), ids, path, nil)
        }
    }

    /// A test notice to every device of a member (`belay push test`), whatever they switched off.
    func test(userID: Int64, now: Date, in db: Database) throws -> [Int64] {
        try tell(.test, memberID: userID, collapseID: "test-\(now.millisecondsSince1970)", expiresAt: now.addingTimeInterval(3_600),
                 path: "/", ids: [], now: now, in: db) { _ in NoticeFacts() }
    }

    enum Recipients {
        case member(Int64)
        case members([Int64])
        case attendeesOf(Int64, statuses: String)
    }

    /// Writes one notice per device of `recipients` that wants `kind`; returns their ids. What
    /// each says is made once per language: the facts its words are made of, the ids the app
    /// reads, the path its link opens and the image it shows (nil: none). Stored as
    /// `{"kind", "link", "image"?, ids…, "locale", "facts"}`: BelayPush words the facts in
    /// the locale, and gives the app the rest.
    @discardableResult
    private func queue(_ kind: NoticeKind, to recipients: Recipients, collapseID: String, expiresAt: Date, now: Date, in db: Database,
                       content: (MemberLocale) -> (NoticeFacts, [(String, JSONValue)], String, String?)) throws -> [Int64] {
        guard expiresAt > now, !policy.platforms.isEmpty else { return [] }
        let devices = try DeviceRepository.recipients(recipients, kind: kind, platforms: policy.platforms, now: now, in: db)
        var ids: [Int64] = []
        var made: [MemberLocale: [UInt8]] = [:]
        for device in devices {
            let locale = device.locale ?? policy.defaultLocale
            let payload: [UInt8]
            if let known = made[locale] {
                payload = known
            } else {
                let (facts, ids, path, image) = content(locale)
                var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("link", .string(policy.publicBaseURL + path))]
                if let image { members.append(("image", .string(image))) }
                members += ids
                members += [("locale", .string(locale.rawValue)), ("facts", .object(facts.object))]
                payload = JSONValue.object(JSONObject(members)).jsonBytes
                made[locale] = payload
            }
            if let id = try PushNoticeRepository.insert(deviceID: device.id, kind: kind, collapseID: collapseID, payload: payload,
                                                        expiresAt: expiresAt, now: now, in: db) {
                ids.append(id)
            }
        }
        if !ids.isEmpty { try WorkNotification.send(.pushNotices, in: db) }
        return ids
    }

    private static func facts(_ meetup: Meetup) -> NoticeFacts {
        NoticeFacts(meetupTitle: meetup.title, placeName: meetup.placeName, startsAt: meetup.startsAt, timeZone: meetup.timeZone)
    }
}
