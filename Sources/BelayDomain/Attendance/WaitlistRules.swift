import BelayStorage
import Foundation

/// Giving freed places to the waitlist, inside the transaction that freed them: at once, or
/// as offers with a claim window (see `WaitlistPolicy`). A place held by an offer counts as
/// taken, so going members and open offers together never exceed the capacity.
struct WaitlistRules: Sendable {
    let policy: WaitlistPolicy
    let events: ChangeFeed

    /// Fills the free places of a scheduled meetup from the front of the waitlist.
    /// - Returns: the attendances promoted at once (none while offers are made).
    @discardableResult
    func fill(meetupID: Int64, capacity: Int, startsAt: Date, now: Date, in db: Database) throws -> [Attendance] {
        let offering = policy.makesOffers && now < startsAt.addingTimeInterval(-Double(policy.cutoffMinutes) * 60)
        let (taken, _) = try AttendanceRepository.counts(meetupID: meetupID, in: db)
        let held = try WaitlistRepository.openOffers(meetupID: meetupID, in: db)
        let free = capacity - taken - held
        guard free > 0 else { return [] }
        var promoted: [Attendance] = []
        for id in try WaitlistRepository.nextInLine(meetupID: meetupID, limit: free, in: db) {
            if offering {
                try WaitlistRepository.offer(id: id, until: now.addingTimeInterval(Double(policy.claimMinutes) * 60), now: now, in: db)
                try events.changed(.waitlistOffered(attendanceID: id), now: now, in: db)
            } else {
                try AttendanceRepository.setStatus(.going, id: id, at: now, in: db)
                guard let attendance = try AttendanceRepository.find(id: id, in: db) else { continue }
                try events.changed(.attendancePromoted(attendance, startsAt: startsAt, claimedOffer: false), now: now, in: db)
                promoted.append(attendance)
            }
        }
        return promoted
    }

    /// Passes on offers that ran out: the member leaves the waitlist (`attendance.offer_expired`)
    /// and the place goes to the next in line.
    /// - Returns: how many offers ran out.
    @discardableResult
    func expireDue(meetupID: Int64?, now: Date, limit: Int = 500, in db: Database) throws -> Int {
        let due = try WaitlistRepository.dueOffers(now: now, meetupID: meetupID, limit: limit, in: db)
        for offer in due {
            try AttendanceRepository.setStatus(.cancelled, id: offer.id, at: now, in: db)
            try events.changed(.offerExpired(attendanceID: offer.id), now: now, in: db)
        }
        for meetupID in Set(due.map(\.meetupID)) {
            guard let meetup = try MeetupRepository.essentials(id: meetupID, in: db), meetup.status == .scheduled else { continue }
            try fill(meetupID: meetupID, capacity: meetup.capacity, startsAt: meetup.startsAt, now: now, in: db)
        }
        return due.count
    }
}
