import BelayDomain
import BelayHTTP
import BelayRepresentations

extension APIRoutes {
    /// Claiming an offered place (declining is leaving: `POST /v1/meetups/{id}/leave`).
    func registerWaitlistRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.claimOffer) { _, context in
            let caller = context.caller
            let attendance = try domain.attendance.claim(meetupID: try context.id(), memberID: caller.userID, by: caller.actor)
            return .api(AttendanceBody(attendance: attendance, presentation: presentation))
        }
    }
}
