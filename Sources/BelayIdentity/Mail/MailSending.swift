/// What sends a sign-in mail: `SMTPMailer` for members, `MailOutbox` for trying Belay on one
/// machine.
public protocol MailSending: Sendable {
    /// Sends (or keeps) `message`.
    /// - Throws: `MailDeliveryError` when it cannot.
    func send(_ message: MailMessage) throws
}

extension SMTPMailer: MailSending {}
