import BelayCore
import BelayDomain
import BelayHTTP

extension OpenAPIDocument {
    static let pushSchemas: [String: JSONValue] = {
        let switches = NoticeKinds.belay.switchable.map { ($0.rawValue, Schema.boolean) }
        return [
            "DeviceRegistration": Schema.object(pairs: [
                ("platform", Schema.enumeration(DevicePlatform.allCases.map(\.rawValue))),
                ("token", ["type": "string", "pattern": "^[!-~]{1,4096}$", "description": "The APNs device token (hex) or the FCM registration token."]),
                ("app_id", ["type": "string", "pattern": "^[A-Za-z0-9._-]{1,255}$", "description": "The bundle id (the `apns-topic`) or Android package name."]),
                ("environment", Schema.enumeration(PushEnvironment.allCases.map(\.rawValue), description: "APNs host of the build: `sandbox` for an app run from Xcode; `production` when absent.")),
                ("locale", Schema.enumeration(MemberLocale.allCases.map(\.rawValue), description: "The language of this phone's notices; the account's when absent.")),
            ], optional: ["environment", "locale"]),
            "Device": Schema.object([
                "id": Schema.integer, "platform": Schema.enumeration(DevicePlatform.allCases.map(\.rawValue)), "token": Schema.string,
                "app_id": Schema.string, "environment": Schema.enumeration(PushEnvironment.allCases.map(\.rawValue)),
                "locale": Schema.nullable(Schema.enumeration(MemberLocale.allCases.map(\.rawValue))),
                "created_at": Schema.dateTime, "updated_at": Schema.dateTime,
                "current_session": ["type": "boolean", "description": "Registered by the session asking."],
            ]),
            "DeviceList": Schema.object(["items": Schema.array(of: Schema.ref("Device"))]),
            "NotificationSettings": Schema.object(pairs: switches),
            "NotificationSettingsChange": Schema.object(pairs: switches, optional: Set(NoticeKinds.belay.switchable.map(\.rawValue))),
        ]
    }()
}

/// The member's devices for push notices, and which notices they want.
extension Operations {
    private static let kinds = NoticeKinds.belay.switchable.map { "`\($0.rawValue)`" }.joined(separator: ", ")
    private static let settings = Answer(status: 200, description: "Each kind of notice and whether it is on.", schema: Schema.ref("NotificationSettings"))

    static let registerDevice = OpenAPIOperation(method: .post, path: "/v1/me/devices", operationID: "registerDevice", summary: "Register this phone for push notices.", tag: "notifications",
                                                 description: "Send the token APNs or FCM gave the app, the app's bundle id or package name, and for iOS whether the build talks to APNs' production or sandbox host. The device belongs to the caller's session: signing out or deleting the account removes it. Registering a token again updates it, and a token registered by another member moves to the caller (one phone, signed out and in).",
                                                 requestBody: "DeviceRegistration",
                                                 answers: [Answer(status: 201, description: "The device, registered or updated.", schema: Schema.ref("Device"))],
                                                 problems: [413, 415, 422])
    static let listDevices = OpenAPIOperation(method: .get, path: "/v1/me/devices", operationID: "listDevices", summary: "The caller's registered devices.", tag: "notifications",
                                              answers: [Answer(status: 200, description: "Devices, oldest first.", schema: Schema.ref("DeviceList"))])
    static let removeDevice = OpenAPIOperation(method: .delete, path: "/v1/me/devices/{id}", operationID: "removeDevice", summary: "Stop push notices to one device.", tag: "notifications",
                                               answers: [Answer(status: 204, description: "The device is removed with the notices waiting for it.", schema: nil)], problems: [404])
    static let notificationSettings = OpenAPIOperation(method: .get, path: "/v1/me/notifications", operationID: "notificationSettings", summary: "Which notices the caller gets.", tag: "notifications",
                                                       description: "Every kind is on until the member switches it off, except `personal_best`, which is off until the member switches it on: \(kinds).",
                                                       answers: [settings])
    static let updateNotificationSettings = OpenAPIOperation(method: .put, path: "/v1/me/notifications", operationID: "updateNotificationSettings", summary: "Switch kinds of notice on or off.", tag: "notifications",
                                                             description: "Send the kinds to change, each `true` or `false`; kinds left out stay as they are. An unknown kind is 422 naming it.",
                                                             requestBody: "NotificationSettingsChange", answers: [settings], problems: [413, 415, 422])
}
