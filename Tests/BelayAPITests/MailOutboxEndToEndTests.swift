import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// A newcomer on `make run`'s defaults signs in by email with no mail server: `belay serve`
/// keeps sign-in mail in its development outbox (the log and `data/mail-outbox`), and never
/// does so for a server whose public address is public.
@Suite(.serialized) struct MailOutboxEndToEndTests {
    /// The six-digit code in a mail's subject, as the outbox logs it (`…sign-in code: 842337" (file)`).
    private static func code(in line: String) -> String? {
        guard let range = line.range(of: #": [0-9]{6}""#, options: .regularExpression) else { return nil }
        return String(line[range].dropFirst(2).prefix(6))
    }

    @Test func aNewcomerSignsInWithTheCodeTheLogPrints() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        #expect(server.waitForOutputLine(timeout: 30) { $0.hasPrefix("sign-in mail goes to the development outbox") } != nil, "\(server.standardOutput)")

        let start = try server.call("POST", "/v1/auth/email", json: #"{"email": "newcomer@example.com"}"#)
        #expect(start.status == 202, "\(start.response.text)")
        let announced = server.waitForErrorLine(timeout: 30) { $0.contains("mail outbox: to newcomer@example.com") }
            ?? server.waitForOutputLine(timeout: 1) { $0.contains("mail outbox: to newcomer@example.com") }
        #expect(announced != nil, "the log tells of the message: \(server.standardError)")
        let codeInLog = try #require(announced.flatMap(Self.code(in:)), "the log shows the code: \(announced ?? "")")

        let outbox = workspace.directory.file("data/mail-outbox")
        let files = try FileManager.default.contentsOfDirectory(atPath: outbox).filter { $0.hasSuffix(".eml") }
        #expect(files.count == 1, "\(files)")
        let file = outbox + "/" + (files.first ?? "")
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "only the server's user reads a sign-in code")
        let eml = try String(contentsOfFile: file, encoding: .utf8)
        #expect(eml.contains("To: newcomer@example.com") && eml.contains("Subject: ") && eml.contains("MIME-Version: 1.0"), "the file is the whole mail: \(eml)")

        let verified = try server.call("POST", "/v1/auth/email/verify",
                                       json: #"{"email": "newcomer@example.com", "code": "\#(codeInLog)", "device_name": "curl"}"#)
        #expect(verified.status == 201, "\(verified.response.text)")
        let access = try #require(verified["access_token"]?.stringValue)
        let me = try server.call("GET", "/v1/me", token: access)
        #expect(me.status == 200 && me["email"]?.stringValue == "newcomer@example.com", "\(me.response.text)")
    }

    @Test func aPublicServerNeverKeepsMailInTheOutbox() throws {
        // Asked for outright: refused at start, naming the setting.
        let refused = try ClubWorkspace.served(server: ["public_base_url": "https://climb.example"],
                                               settings: ["mail": ["transport": "outbox"]])
        let result = try refused.run("serve", "--port", "0")
        #expect(result.status != 0)
        #expect(result.standardError.contains("mail.transport") && result.standardError.contains("https://climb.example"), "\(result)")
        #expect(!result.standardError.contains("Fatal error"), "\(result)")

        // Left to `auto`: email sign-in is off until mail.smtp_url is set, and nothing is written.
        let workspace = try ClubWorkspace.served(server: ["public_base_url": "https://climb.example"])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        #expect(!server.standardOutput.contains { $0.contains("outbox") }, "\(server.standardOutput)")
        let start = try server.call("POST", "/v1/auth/email", json: #"{"email": "someone@example.com"}"#)
        #expect(start.status == 403 && start["code"]?.stringValue == "sign_in_method_disabled", "\(start.response.text)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("data/mail-outbox")))
    }
}
