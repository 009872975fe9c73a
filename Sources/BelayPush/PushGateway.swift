import BelayDomain

/// Sends claimed notices to a push service and says what became of each. Never throws: a
/// failure is an outcome (retry, remove the device, give up).
///
/// A gateway that is only this sends a batch and answers for all of it at once; the delivery
/// worker waits for it. APNs and FCM are `StreamingPushGateway`s, whose notices are answered
/// one by one.
public protocol PushGateway: Sendable {
    /// Sends `deliveries` (all for this gateway's platform) together and waits for every answer.
    /// - Returns: one outcome per delivery, in order.
    func send(_ deliveries: [PushDelivery]) -> [PushOutcome]
}

/// One answer of a push service to one notice, before it is judged.
struct PushAnswer: Sendable {
    /// The HTTP status, nil when no answer came.
    let status: Int?
    let body: [UInt8]
    /// `Retry-After` in seconds, when the service sent it.
    let retryAfter: Double?
    /// Why no answer came (libcurl's reason), when none did.
    let failure: String?

    /// `Retry-After` given as seconds (an HTTP date is taken as "soon": 60 s).
    static func retryAfter(_ header: String?) -> Double? {
        guard let header, !header.isEmpty else { return nil }
        if let seconds = Double(header), seconds >= 0 { return min(seconds, 3_600) }
        return 60
    }
}

/// Why a push service cannot be used as configured (a key file, a service account), for a person.
public struct PushSetupError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
