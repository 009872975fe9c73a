import BelayDomain

/// A push gateway whose notices go out as streams answered one by one: the delivery worker
/// starts notices beside those under way and records each outcome as it comes, so a stream
/// that stalls holds only its own notice (until its timeout), never the answers, retries or
/// next notices of the rest.
///
/// Threading: `start`, `collect` and `unanswered` from one thread at a time (the delivery
/// worker's); `interrupt` from any thread.
public protocol StreamingPushGateway: PushGateway {
    /// Starts sending `deliveries` (all for this gateway's platform) beside those under way.
    /// Returns without waiting for an answer (fetching a missing access token aside).
    func start(_ deliveries: [PushDelivery])

    /// The notices answered since the last call, each with its outcome. When none has been,
    /// waits for the first at most `seconds` (0: not at all), or until `interrupt`; may return
    /// none.
    func collect(waitingAtMost seconds: Double) -> [(PushDelivery, PushOutcome)]

    /// Started notices whose outcome `collect` has not handed back yet.
    var unanswered: Int { get }

    /// Ends a `collect` that is waiting, at once. Safe from any thread.
    func interrupt()
}

extension StreamingPushGateway {
    /// Starts `deliveries` and waits until each is answered (every stream has its own timeout).
    /// For a batch sent on its own (`belay push test`): outcomes of notices started before and
    /// still under way are not returned, so call it only when none is.
    /// - Returns: one outcome per delivery, in order.
    public func send(_ deliveries: [PushDelivery]) -> [PushOutcome] {
        start(deliveries)
        var outcomes: [PushDelivery: PushOutcome] = [:]
        while outcomes.count < deliveries.count && unanswered > 0 {
            for (delivery, outcome) in collect(waitingAtMost: 0.5) { outcomes[delivery] = outcome }
        }
        return deliveries.map { outcomes[$0] ?? .retry(after: nil, status: nil, error: "no answer was collected") }
    }
}
