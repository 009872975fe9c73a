import BelayDomain

/// A gateway that only sends whole batches, seen by the delivery worker as a streaming one:
/// `start` sends the batch and waits for it, and the next `collect` hands back its outcomes.
final class WholeBatchGateway: StreamingPushGateway, @unchecked Sendable {
    private let gateway: any PushGateway
    private var answered: [(PushDelivery, PushOutcome)] = []

    init(_ gateway: any PushGateway) {
        self.gateway = gateway
    }

    func start(_ deliveries: [PushDelivery]) {
        answered += zip(deliveries, gateway.send(deliveries)).map { ($0, $1) }
    }

    func collect(waitingAtMost seconds: Double) -> [(PushDelivery, PushOutcome)] {
        defer { answered = [] }
        return answered
    }

    var unanswered: Int { answered.count }

    func interrupt() {}
}
