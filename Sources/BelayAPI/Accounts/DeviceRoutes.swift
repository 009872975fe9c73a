import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import Foundation

/// `POST /v1/me/devices`.
struct RegisterDeviceRequest: Decodable {
    var platform: String
    var token: String
    var appID: String
    var environment: String?
    var locale: String?

    enum CodingKeys: String, CodingKey {
        case platform, token, environment, locale
        case appID = "app_id"
    }

    /// `environment` and `locale` may be left out but are never `null` (refused naming them,
    /// as the OpenAPI document types them).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        platform = try container.decode(String.self, forKey: .platform)
        token = try container.decode(String.self, forKey: .token)
        appID = try container.decode(String.self, forKey: .appID)
        environment = try container.decodeUnlessAbsent(String.self, forKey: .environment)
        locale = try container.decodeUnlessAbsent(String.self, forKey: .locale)
    }
}

extension APIRoutes {
    /// The member's phones for push notices, and which notices they want.
    func registerDeviceRoutes(authenticated routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.registerDevice) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: RegisterDeviceRequest.self)
            guard let platform = DevicePlatform(rawValue: body.platform) else {
                throw Self.invalid("platform", "`platform` is ios or android; got `\(body.platform.prefix(20))`.")
            }
            let environment = try body.environment.map { text in
                guard let environment = PushEnvironment(rawValue: text) else {
                    throw Self.invalid("environment", "`environment` is production (App Store, TestFlight, Google Play) or sandbox (an app run from Xcode); got `\(text.prefix(20))`.")
                }
                return environment
            } ?? .production
            let registration = DeviceRegistration(platform: platform, token: body.token, appID: body.appID, environment: environment,
                                                  locale: try Self.locale(body.locale))
            let device = try domain.push.register(registration, userID: caller.userID, sessionID: caller.sessionID)
            return .api(DeviceBody(device: device, isCurrentSession: caller.sessionID != nil && device.sessionID == caller.sessionID),
                        status: .created, headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.listDevices) { _, context in
            let caller = context.caller
            let devices = try domain.push.devices(userID: caller.userID)
            var json = JSONOutput()
            json.object { json in
                json.key("items")
                json.array(devices) { json, device in
                    DeviceBody(device: device, isCurrentSession: caller.sessionID != nil && device.sessionID == caller.sessionID).write(to: &json)
                }
            }
            return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                            body: ResponseBody(bytes: json.bytes))
        }

        routes.on(Operations.removeDevice) { _, context in
            let caller = context.caller
            try domain.push.removeDevice(id: try context.id(), userID: caller.userID)
            return Response(status: .noContent, headers: [:], body: .empty)
        }

        routes.on(Operations.notificationSettings) { _, context in
            let caller = context.caller
            return .api(NotificationSettingsBody(settings: try domain.push.settings(userID: caller.userID)), headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.updateNotificationSettings) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: [String: Bool].self)
            var changes: [(kind: NoticeKind, enabled: Bool)] = []
            for (name, enabled) in body.sorted(by: { $0.key < $1.key }) {
                changes.append((try domain.push.switchableKind(named: name), enabled))
            }
            return .api(NotificationSettingsBody(settings: try domain.push.updateSettings(userID: caller.userID, changes)),
                        headers: ["Cache-Control": "no-store"])
        }
    }

    private static func invalid(_ field: String, _ detail: String) -> HTTPError {
        HTTPError(.unprocessableContent, code: RefusalReason.invalidInput.rawValue, detail: detail, extensions: ["field": .string(field)])
    }
}
