import Foundation

/// The push service a device is reached through.
public enum DevicePlatform: String, Sendable, CaseIterable, Codable {
    /// Apple's APNs.
    case ios
    /// Google's Firebase Cloud Messaging.
    case android
}

/// Which APNs host a device's token belongs to: an app from the App Store or TestFlight
/// (`production`) or one run from Xcode (`sandbox`). FCM has one host for both.
public enum PushEnvironment: String, Sendable, CaseIterable, Codable {
    case production, sandbox
}

/// A phone a member registered for notices.
public struct Device: Sendable, Hashable {
    public let id: Int64
    public let userID: Int64
    /// The session that registered it; nil when registered with an admin-made token.
    public let sessionID: Int64?
    public let platform: DevicePlatform
    public let token: String
    /// The app's bundle id (the `apns-topic`) or Android package name.
    public let appID: String
    public let environment: PushEnvironment
    public let locale: MemberLocale?
    public let createdAt: Date
    public let updatedAt: Date
}

/// What the app sends to register a device.
public struct DeviceRegistration: Sendable, Hashable {
    public var platform: DevicePlatform
    public var token: String
    public var appID: String
    public var environment: PushEnvironment
    public var locale: MemberLocale?

    public init(platform: DevicePlatform, token: String, appID: String, environment: PushEnvironment = .production,
                locale: MemberLocale? = nil) {
        self.platform = platform
        self.token = token
        self.appID = appID
        self.environment = environment
        self.locale = locale
    }
}
