import BelayCore
import Foundation
import Synchronization

/// The development outbox: each message becomes an `.eml` file in one directory (only its
/// owner may read it) and its subject, which carries the code, goes to the log, so that a newcomer on `make run` signs in
/// with the code the log shows. Never for members: the configuration refuses it when the
/// server's public address is public.
///
/// Threading: safe from any thread.
public final class MailOutbox: MailSending {
    public let directory: String
    private let clock: any TimeSource
    private let log: @Sendable (String) -> Void
    private let written = Mutex(0)

    /// - Parameter log: told of each message: its recipient, subject (with the code) and file.
    public init(directory: String, clock: any TimeSource, log: @escaping @Sendable (String) -> Void) {
        self.directory = directory
        self.clock = clock
        self.log = log
    }

    /// Writes `message` to `directory` as `YYYYMMDD-HHMMSS-N.eml` and logs its subject.
    /// - Throws: `MailDeliveryError.invalid` when the directory or the file cannot be written.
    public func send(_ message: MailMessage) throws {
        let now = clock.now()
        let number = written.withLock { count -> Int in
            count += 1
            return count
        }
        // 2026-12-05T09:30:00Z → 20261205-093000
        let stamp = String(RFC3339.string(from: now, fraction: .none).prefix(19).filter { $0.isNumber || $0 == "T" }).replacingOccurrences(of: "T", with: "-")
        let path = (directory as NSString).appendingPathComponent("\(stamp)-\(number).eml")
        let mime = SMTPMailer.mime(for: message, from: "Belay outbox <outbox@localhost>", messageIDDomain: "localhost", date: now)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: path, contents: Data(mime.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw MailDeliveryError(code: .invalid, description: "the mail outbox could not write \(path): \(error.localizedDescription); check that data_directory is writable")
        }
        // The subject carries the code; the file has the link as well.
        log("mail outbox: to \(message.to), \"\(message.subject)\" (\(path))")
    }
}
