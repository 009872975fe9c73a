import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

extension APIRoutes {
    /// Recurring meetups: creating a weekly series, changing one meetup and every later one, and
    /// cancelling one meetup and every later one.
    func registerSeriesRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.createMeetupSeries, allowing: [.host, .admin], to: "create meetups") { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: CreateSeriesRequest.self)
            guard let repeats = MeetupRepeat(rawValue: body.repeats) else {
                throw HTTPError(.unprocessableContent, code: "invalid_field",
                                detail: "`repeat` must be one of \(MeetupRepeat.allCases.map(\.rawValue).joined(separator: ", ")); got `\(body.repeats)`.",
                                extensions: ["field": "repeat"])
            }
            let series = try domain.meetups.createSeries(NewMeetup(
                title: body.title, description: body.description ?? "", placeName: body.placeName, address: body.address,
                startsAt: body.startsAt, endsAt: body.endsAt, timeZone: body.timeZone ?? presentation.clubZone.zone.identifier,
                capacity: body.capacity, hostID: body.hostID ?? caller.userID), repeat: repeats, until: body.until, by: caller.actor)
            return .api(ListBody(items: series.map(meetupBody), nextCursor: nil), status: .created)
        }

        routes.on(Operations.updateMeetupAndFollowing, allowing: [.host, .admin], to: "change meetups") { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: UpdateMeetupRequest.self)
            let updated = try domain.meetups.updateFollowing(id: try context.id(), MeetupChanges(
                title: body.title, description: body.description, placeName: body.placeName, address: body.address,
                startsAt: body.startsAt, endsAt: body.endsAt, timeZone: body.timeZone, capacity: body.capacity,
                hostID: body.hostID, gymID: body.gymID), by: caller.actor)
            return .api(ListBody(items: updated.map(meetupBody), nextCursor: nil))
        }

        routes.on(Operations.cancelMeetupAndFollowing) { _, context in
            let caller = context.caller  // the domain decides: the host, co-hosts and admins of every one of them
            let cancelled = try domain.meetups.cancelFollowing(id: try context.id(), by: caller.actor)
            return .api(ListBody(items: cancelled.map(meetupBody), nextCursor: nil))
        }
    }
}
