import BelayDomain
import BelayHTTP
import BelayRepresentations

/// `POST /v1/meetups/{id}/attendees` and `POST /v1/meetups/{id}/undo-check-in`: the member a host acts on.
struct AttendeeRequest: Decodable {
    var userID: Int64

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
    }
}

extension APIRoutes {
    /// What `belay attendees add|remove|undo-check-in` does, for the meetup's host, co-hosts
    /// and admins in the app, through the same domain calls and so the same rules: adding a
    /// member (going while there is room, else waitlisted), removing one (the waitlist moves
    /// up), undoing a check-in (the reward is revoked); then, once the meetup is completed, who
    /// held a place and never came; and a member's attendance record. A user the caller may not
    /// see is answered exactly like one that does not exist (404 `user_not_found`).
    func registerHostTaskRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.addAttendee) { request, context in
            let caller = context.caller  // the domain decides: the meetup's host, co-hosts, admins
            let id = try context.id()
            let body = try request.decodeJSON(as: AttendeeRequest.self)
            let result = try domain.attendance.join(meetupID: id, memberID: body.userID, by: caller.actor)
            return .api(try attendeeBody(result.attendance), status: result.changed ? .created : .ok)
        }

        routes.on(Operations.removeAttendee) { _, context in
            let caller = context.caller
            let id = try context.id()
            let result = try domain.attendance.leave(meetupID: id, memberID: try context.id("user_id"), by: caller.actor)
            return .api(AttendeeRemovalBody(removed: try attendeeBody(result.attendance), promoted: try result.promoted.map(attendeeBody)))
        }

        routes.on(Operations.undoCheckIn) { request, context in
            let caller = context.caller
            let id = try context.id()
            let body = try request.decodeJSON(as: AttendeeRequest.self)
            let attendance = try domain.checkIns.undoCheckIn(meetupID: id, memberID: body.userID, by: caller.actor)
            return .api(try attendeeBody(attendance))
        }

        routes.on(Operations.listNoShows) { request, context in
            let caller = context.caller
            let page = try request.pagination(defaultLimit: 50, maximum: 500)
            let noShows = try domain.attendance.noShows(meetupID: try context.id(), by: caller.actor, limit: page.limit, cursor: page.cursor)
            return .api(ListBody(items: noShows.items.map { AttendeeBody(attendee: $0, presentation: presentation) },
                                 nextCursor: noShows.nextCursor))
        }

        routes.on(Operations.attendanceRecord) { _, context in
            let caller = context.caller
            return .api(AttendanceRecordBody(record: try domain.attendance.record(memberID: try context.id(), by: caller.actor)),
                        headers: ["Cache-Control": "private, no-store"])
        }
    }

    /// The attendance with its member's names, as a host's attendee list shows it.
    private func attendeeBody(_ attendance: Attendance) throws -> AttendeeBody {
        let member = try domain.users.user(id: attendance.memberID)
        return AttendeeBody(attendee: Attendee(attendance: attendance, handle: member.handle, displayName: member.displayName),
                            presentation: presentation)
    }
}
