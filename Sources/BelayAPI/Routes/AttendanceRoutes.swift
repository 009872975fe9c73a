import BelayDomain
import BelayHTTP
import BelayRepresentations

extension APIRoutes {
    /// Joining, leaving and the caller's own attendance. Members act only for themselves.
    ///
    /// Joins and leaves are answered deferred: the write joins the writer's next group commit
    /// while the connection is suspended, so a burst of them holds no HTTP thread.
    func registerAttendanceRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.joinMeetup) { _, context in
            let caller = context.caller
            let id = try context.id()
            let deferred = DeferredResponse()
            let presentation = presentation
            domain.attendance.join(meetupID: id, memberID: caller.userID, by: caller.actor) { outcome in
                deferred.complete {
                    let result = try outcome.get()
                    return .api(AttendanceBody(attendance: result.attendance, presentation: presentation),
                                status: result.changed ? .created : .ok)
                }
            }
            return .deferred(deferred)
        }

        routes.on(Operations.leaveMeetup) { _, context in
            let caller = context.caller
            let id = try context.id()
            let deferred = DeferredResponse()
            let presentation = presentation
            domain.attendance.leave(meetupID: id, memberID: caller.userID, by: caller.actor) { outcome in
                deferred.complete { .api(LeaveBody(result: try outcome.get(), presentation: presentation)) }
            }
            return .deferred(deferred)
        }

        routes.on(Operations.myAttendance) { _, context in
            let caller = context.caller
            let id = try context.id()
            guard let attendance = try domain.attendance.attendance(meetupID: id, memberID: caller.userID) else {
                throw HTTPError(.notFound, code: RefusalReason.notAttending.rawValue,
                                detail: "You have not joined meetup \(id); join it with POST /v1/meetups/\(id)/join.",
                                extensions: ["reason": .string(RefusalReason.notAttending.rawValue)])
            }
            return .api(AttendanceBody(attendance: attendance, presentation: presentation))
        }
    }
}
