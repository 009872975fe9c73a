import BelayDomain
import BelayHTTP
import BelayRepresentations

extension APIRoutes {
    /// `POST /v1/meetups/{id}/check-in`: 201 with the attendance and reward the first time,
    /// 200 with the same body on a repeat (same `Idempotency-Key`, or already checked in);
    /// refusals are 409/422 problems whose `reason` says why.
    ///
    /// The answer is deferred: the check-in's write joins the writer's next group commit while
    /// the connection is suspended, so a burst of check-ins holds no HTTP thread.
    func registerCheckInRoutes(on routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.checkIn) { request, context in
            let caller = context.caller
            let id = try context.id()
            let body = try request.decodeJSON(as: CheckInRequestBody.self)
            let proof: CheckInRequest.Proof
            let memberID: Int64
            switch (body.code, body.userID) {
            case let (code?, nil):
                guard body.at == nil else { throw Self.checkInShape("`at` goes with `user_id` (a host recording an offline check-in), not with `code`.", field: "at") }
                proof = .code(code)
                memberID = caller.userID
            case let (nil, userID?):
                proof = body.at.map { .offline(at: $0) } ?? .host
                memberID = userID
            case (.some, .some):
                throw Self.checkInShape("Send either `code` (checking yourself in) or `user_id` (a host checking a member in), not both.", field: "user_id")
            case (nil, nil):
                throw HTTPError.unprocessable(code: "missing_field",
                                              detail: "Field `code` is required: the six digits the host shows (hosts send `user_id` instead).",
                                              extensions: ["field": "code"])
            }
            let key = request.headers["Idempotency-Key"]
            let deferred = DeferredResponse()
            let (services, presentation) = (services, presentation)
            domain.checkIns.checkIn(CheckInRequest(meetupID: id, memberID: memberID, proof: proof, idempotencyKey: key),
                                    by: caller.actor) { outcome in
                deferred.complete { try Self.checkInResponse(outcome, services: services, presentation: presentation) }
            }
            return .deferred(deferred)
        }
    }

    /// The answer to a check-in, counted in the metrics.
    static func checkInResponse(_ outcome: Result<CheckInResult, any Error>, services: APIServices,
                                presentation: Presentation) throws -> Response {
        let result: CheckInResult
        do {
            result = try outcome.get()
        } catch let error as DomainError {
            services.metrics.checkInRefused(error.reason)
            if error.reason == .invalidInput, let problem = DomainProblems.httpError(for: error) {
                var problem = problem
                if error.field == "checked_in_at" { problem.extensions["field"] = "at" }
                if error.field == "idempotency_key" {
                    problem.extensions["field"] = nil
                    problem.extensions["header"] = "Idempotency-Key"
                }
                throw problem
            }
            throw error
        }
        if result.isRepeat {
            services.metrics.checkInRepeated()
        } else {
            services.metrics.checkInCreated()
        }
        return .api(CheckInBody(result: result, presentation: presentation), status: result.isRepeat ? .ok : .created)
    }

    static func checkInShape(_ detail: String, field: String) -> HTTPError {
        HTTPError.unprocessable(code: "invalid_field", detail: detail, extensions: ["field": .string(field)])
    }
}
