import BelayCore
import BelayPush
import BelayTestSupport

extension PushServicesProcess {
    /// An APNs client of the loopback APNs (production and sandbox alike), trusting its CA,
    /// whose streams each end after `timeout` seconds.
    func apnsClient(clock: any TimeSource, timeout: Double = 10) throws -> APNsClient {
        let url = "https://127.0.0.1:\(tlsPort)"
        return try APNsClient(settings: APNsSettings(keyFile: apnsKeyFile, keyID: keyID, teamID: teamID, url: url, sandboxURL: url,
                                                     caFile: caFile, timeoutSeconds: timeout), clock: clock)
    }

    /// An FCM client of the loopback FCM and its token endpoint, trusting their CA.
    func fcmClient(clock: any TimeSource) throws -> FCMClient {
        try FCMClient(settings: FCMSettings(serviceAccountFile: serviceAccountFile, url: "https://127.0.0.1:\(tlsPort)", caFile: caFile),
                      clock: clock)
    }
}
