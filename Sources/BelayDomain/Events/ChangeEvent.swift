import BelayStorage
import Foundation

/// A change the domain made that someone outside the transaction may want to hear of: told
/// once, inside the transaction that made it, to every subscriber of the `ChangeFeed`. The
/// case says what kind of change it is, its first value what it is about (the subject), and
/// the rest the facts the domain already holds, among them the members it concerns where
/// those cannot be read again later (the members a cancellation sent home).
///
/// Subscribers decide what the change means to them: the webhook emitter which event type
/// goes out, the notice writer which notice each member gets. Neither knows of the other.
enum ChangeEvent {
    /// A member joined a meetup, going (`going`) or on its waitlist.
    case attendanceJoined(attendanceID: Int64, memberID: Int64, meetupID: Int64, startsAt: Date, going: Bool)
    /// A waitlisted member became `going` (`attendance` as written): given a freed place at
    /// once, or by claiming the offer of one (`claimedOffer`).
    case attendancePromoted(Attendance, startsAt: Date, claimedOffer: Bool)
    /// A member left a meetup (or declined the offer of a place).
    case attendanceLeft(attendanceID: Int64)
    /// A member checked in: `attendance` as the check-in wrote it.
    case checkedIn(Attendance)
    /// A check-in was undone: the member is going again, the reward revoked.
    case checkInUndone(attendanceID: Int64)
    /// A waitlisted member was offered a freed place, to claim before a time.
    case waitlistOffered(attendanceID: Int64)
    /// An offer of a place ran out unclaimed: the member left the waitlist.
    case offerExpired(attendanceID: Int64)
    /// A meetup was created (`ended`: recorded after it ended).
    case meetupCreated(Meetup, ended: Bool)
    /// The meetups of a new weekly series were created, soonest first (followers are not told of them).
    case seriesCreated(meetupIDs: [Int64])
    /// A meetup was changed; `timeOrPlaceChanged` when its start, place or address did.
    case meetupUpdated(Meetup, timeOrPlaceChanged: Bool)
    /// A meetup was cancelled (`meetup` as it was before), ending the attendances of
    /// `sentHome`, the members going and waiting.
    case meetupCancelled(Meetup, sentHome: [Int64])
    /// A meetup's public page was published or taken down.
    case meetupPageChanged(meetupID: Int64)
    /// A meetup's check-in window closed: it is completed.
    case meetupCompleted(meetupID: Int64)
    /// A reward's sticker is stored and ready to share.
    case rewardReady(rewardID: Int64)
    /// A member logged climbs: `created` are the ticks new to the log (not those logged before).
    case ticksLogged(memberID: Int64, created: [Tick], preferences: LogbookPreferences)
    /// A member deleted their account (or an admin did).
    case accountDeleted(userID: Int64)
    /// A member reported something (`reportID`) for `reason`.
    case reportFiled(reportID: Int64, subjectType: ReportSubjectType, subjectID: String, reason: ReportReason)
    /// Reported content was hidden, by the moderators or `automatically` by enough reports.
    case contentHidden(subjectType: ReportSubjectType, subjectID: String, automatically: Bool)
    /// The moderators suspended a member, `until` a time or for good.
    case memberSuspended(memberID: Int64, until: Date?)
    /// The moderators acted (`actionID` in their log) on what `memberID` wrote or on the member,
    /// closing `closedReports`; `rule` is the reason they gave.
    case moderated(actionID: Int64, action: ModerationActionKind, memberID: Int64?, closedReports: [Int64], rule: String,
                   appealAddress: String?)
}
