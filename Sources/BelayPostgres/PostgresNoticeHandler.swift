import BelayCore
import CPQ

/// Receives the notices and warnings PostgreSQL sends on a connection, which libpq would
/// otherwise print raw on standard error (`WARNING:  …`), and hands each on as one line.
/// Notices below warnings are not sent at all (`client_min_messages = warning`).
final class PostgresNoticeHandler: @unchecked Sendable {
    private let handle: @Sendable (String) -> Void

    init(_ handle: @escaping @Sendable (String) -> Void) {
        self.handle = handle
    }

    /// The default: a warning log line labelled `postgresql`.
    static let logged: @Sendable (String) -> Void = { line in Logger(label: "postgresql").warning(line) }

    /// Called by libpq with the notice's result.
    func receive(_ result: OpaquePointer) {
        let field = { (code: Int32) -> String? in PQresultErrorField(result, code).map { String(cString: $0) } }
        let severity = field(Int32(UInt8(ascii: "V"))) ?? field(Int32(UInt8(ascii: "S"))) ?? "NOTICE"
        let message = field(Int32(UInt8(ascii: "M"))) ?? "(no message)"
        handle("\(severity): \(message)")
    }
}
