import BelayCore
import BelayDomain
import Foundation

/// A registered device as the member sees it (`/v1/me/devices`).
public struct DeviceBody: JSONRepresentable {
    public let device: Device
    /// Whether the session asking registered it.
    public let isCurrentSession: Bool

    public init(device: Device, isCurrentSession: Bool) {
        self.device = device
        self.isCurrentSession = isCurrentSession
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", device.id)
            json.member("platform", device.platform.rawValue)
            json.member("token", device.token)
            json.member("app_id", device.appID)
            json.member("environment", device.environment.rawValue)
            json.member("locale", device.locale?.rawValue)
            json.member("created_at", utc: device.createdAt)
            json.member("updated_at", utc: device.updatedAt)
            json.member("current_session", isCurrentSession)
        }
    }
}

/// Which kinds of notice are on (`/v1/me/notifications`): one boolean per kind.
public struct NotificationSettingsBody: JSONRepresentable {
    public let settings: [(kind: NoticeKind, enabled: Bool)]

    public init(settings: [(kind: NoticeKind, enabled: Bool)]) {
        self.settings = settings
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            for setting in settings {
                json.key(dynamic: setting.kind.rawValue)
                json.boolean(setting.enabled)
            }
        }
    }
}
