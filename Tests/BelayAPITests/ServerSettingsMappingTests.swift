import BelayAPI
import BelayComposition
import BelayConfig
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

@Suite("config.json's server section as HTTP server settings")
struct ServerSettingsMappingTests {
    @Test("the header deadline and connection limits reach the server; the defaults leave room for other addresses")
    func headerDeadlineAndLimits() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("config.json")
        try Data(#"{"server": {"header_timeout_seconds": 7, "connection_timeout_seconds": 20}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let configured = ServerSettings(configuration: try BelayConfiguration.load(
            configFile: file, environment: [:], currentDirectory: directory.path))
        #expect(configured.headerTimeoutSeconds == 7)
        #expect(configured.connectionTimeoutSeconds == 20)

        let empty = try TemporaryDirectory()
        let defaults = ServerSettings(configuration: try BelayConfiguration.load(
            configFile: nil, environment: [:], currentDirectory: empty.path))
        #expect(defaults.headerTimeoutSeconds == 10)
        // 2,000 connections from 20 addresses fit under the per-address cap and leave room.
        #expect(defaults.maxConnectionsPerIP * 32 <= defaults.maxConnections)
        #expect(defaults.maxConnections - 2_000 >= 1_000)
    }

    @Test("a word the domain does not know is refused at start, naming the key, never read as another choice")
    func unknownChoicesAreRefused() throws {
        let empty = try TemporaryDirectory()
        let loaded = try BelayConfiguration.load(configFile: nil, environment: [:], currentDirectory: empty.path)
        _ = try DomainSettings(configuration: loaded)
        for (key, change) in [("accounts.sign_up", { (c: inout BelayConfiguration) in c.accounts.signUp = "public" }),
                              ("meetups.created_by", { (c: inout BelayConfiguration) in c.meetups.createdBy = "admins" })] {
            var configuration = loaded
            change(&configuration)
            let error = try #require(throws: ApplicationError.self) { _ = try DomainSettings(configuration: configuration) }
            #expect(error.description.contains(key), "\(error)")
            #expect(error.description.contains("is not one of"), "\(error)")
        }
    }
}
