import BelayDomain

/// What a sign-in says besides its proof: the device that asks (it names the session), the
/// invite code a closed club asks a new member for, and the language of a new account.
public struct SignInDetails: Sendable {
    public var device: DeviceDescription
    public var inviteCode: String?
    public var locale: MemberLocale?

    public init(device: DeviceDescription = DeviceDescription(), inviteCode: String? = nil, locale: MemberLocale? = nil) {
        self.device = device
        self.inviteCode = inviteCode
        self.locale = locale
    }
}
