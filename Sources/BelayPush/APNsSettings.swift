/// How Belay reaches Apple's push service (`push.apns.*` in config.json).
public struct APNsSettings: Sendable, Hashable {
    /// The team's token-signing key, the `.p8` file from Apple's developer site.
    public var keyFile: String
    public var keyID: String
    public var teamID: String
    /// Where production tokens go (`push.apns.url`).
    public var url: String
    /// Where sandbox tokens (apps run from Xcode) go (`push.apns.sandbox_url`).
    public var sandboxURL: String
    /// A CA bundle to trust instead of the system's (a local test server); empty for the system's.
    public var caFile: String
    /// The longest one notice's stream may take, connecting included; it holds no other.
    public var timeoutSeconds: Double

    public init(keyFile: String, keyID: String, teamID: String, url: String, sandboxURL: String, caFile: String,
                timeoutSeconds: Double = 10) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.url = url
        self.sandboxURL = sandboxURL
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
    }
}

/// How Belay reaches Firebase Cloud Messaging (`push.fcm.*` in config.json).
public struct FCMSettings: Sendable, Hashable {
    /// The service account's JSON key file from the Firebase console.
    public var serviceAccountFile: String
    /// FCM's address (`push.fcm.url`).
    public var url: String
    /// A CA bundle to trust instead of the system's; empty for the system's.
    public var caFile: String
    /// The longest one message's stream may take, connecting included; it holds no other.
    public var timeoutSeconds: Double

    public init(serviceAccountFile: String, url: String, caFile: String, timeoutSeconds: Double = 10) {
        self.serviceAccountFile = serviceAccountFile
        self.url = url
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
    }
}
