import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for one test: Debian's `postgresql` (installed by
/// `make test-deps`) initialised into a temporary directory, listening only on a unix
/// socket in that directory and a free port number, run as an unprivileged user when the
/// tests run as root, and stopped (its files removed) when the value is released. Nothing
/// depends on a server that happens to be running.
public final class PostgresCluster: @unchecked Sendable {
    private let directory: TemporaryDirectory
    private let binaries: String
    private let runAs: String?
    /// The unix socket's directory.
    public let socketDirectory: String
    public let port: Int
    public let user = "belay"

    /// Initialises and starts the cluster.
    /// - Throws: when PostgreSQL is not installed or will not start (the message has its log).
    public init() throws {
        directory = try TemporaryDirectory(prefix: "belay-postgres")
        let config = try ExternalTool.output("/usr/bin/pg_config", ["--bindir"])
        binaries = config.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard config.status == 0, FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey:
                "PostgreSQL's server programs are not installed (no initdb in '\(binaries)'); run make test-deps"])
        }
        socketDirectory = directory.path
        port = try FreePort.next()
        // initdb and postgres refuse to run as root.
        runAs = getuid() == 0 ? "nobody" : nil
        if runAs != nil {
            try ExternalTool.run("/usr/bin/chown", ["nobody", directory.path])
            chmod(directory.path, 0o700)
        }
        let data = directory.file("data")
        try run("initdb", ["-D", data, "-U", user, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
        try start()
    }

    /// Restarts the server (`pg_ctl restart -m fast`): every connection is dropped, as when
    /// a database server is restarted under its clients.
    /// - Throws: when it does not come back.
    public func restart() throws {
        try run("pg_ctl", ["-D", directory.file("data"), "-m", "fast", "-w", "stop"])
        try start()
    }

    private func start() throws {
        let data = directory.file("data")
        let log = directory.file("server.log")
        do {
            try run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o",
                               "-p \(port) -k \(socketDirectory) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c max_connections=400", "start"])
        } catch {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "PostgreSQL did not start: \(error)\n\(text)"])
        }
    }

    /// What the server has written to its log so far (errors and warnings of every session).
    public var serverLog: String {
        (try? String(contentsOfFile: directory.file("server.log"), encoding: .utf8)) ?? ""
    }

    /// A libpq connection URL for `database` on this cluster.
    public func url(database: String = "postgres") -> String {
        let host = socketDirectory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketDirectory
        return "postgresql://\(user)@/\(database)?host=\(host)&port=\(port)"
    }

    /// Creates an empty database.
    /// - Throws: when `createdb` fails.
    public func createDatabase(_ name: String) throws {
        try run("createdb", ["-h", socketDirectory, "-p", String(port), "-U", user, name])
    }

    /// Runs `psql -c sql` on `database` and returns what it printed (unaligned, tuples only).
    /// - Throws: when psql fails; the message has its error output.
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try ExternalTool.output(binaries + "/psql", ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory,
                                                                  "-p", String(port), "-U", user, "-d", database, "-c", sql])
        guard result.status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "psql failed: \(result.standardError)"])
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a PostgreSQL program (as `runAs` when set) with every file descriptor above 2
    /// closed: the server `pg_ctl` starts would otherwise inherit the descriptors by which
    /// Foundation watches its children (and other tests' pipes), and they would never see an end.
    private func run(_ program: String, _ arguments: [String]) throws {
        let command = (runAs.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [binaries + "/" + program] + arguments
        try ExternalTool.run("/usr/bin/python3", ["-c", "import os, sys; os.closerange(3, 65536); os.execv(sys.argv[1], sys.argv[1:])"] + command)
    }

    deinit {
        try? run("pg_ctl", ["-D", directory.file("data"), "-m", "immediate", "-w", "stop"])
    }
}
