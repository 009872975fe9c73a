import BelayAPI
import BelayTestSupport
import Foundation
import Testing

/// Belay behind the nginx site in `deploy/`, as it runs in public: TLS with a certificate
/// made here, HTTP/2, and the client's address reaching Belay's access log.
@Suite(.serialized) struct ReverseProxyTests {
    @Test func throughNginxThePageAndTheAPIAnswerOverTLSAndTheClientIsLogged() throws {
        let workspace = try ClubWorkspace.served(server: ["trusted_proxies": "127.0.0.1"])
        let (server, link, _, token) = try SharePageBrowserTests.sharedReward(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let directory = workspace.directory
        let certificate = directory.file("belay.pem"), key = directory.file("belay.key")
        let made = try ExternalTool.output("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=belay.test",
            "-addext", "subjectAltName=DNS:belay.test", "-keyout", key, "-out", certificate,
        ])
        try #require(made.status == 0, "openssl: \(made.standardError)")

        let httpsPort = try FreePort.next(), httpPort = try FreePort.next()
        let site = try String(contentsOf: BelayProcess.packageRoot.appendingPathComponent("deploy/nginx-belay.conf"), encoding: .utf8)
            .replacingOccurrences(of: "listen [::]:443 ssl http2;", with: "")
            .replacingOccurrences(of: "listen [::]:80;", with: "")
            .replacingOccurrences(of: "listen 443 ssl http2;", with: "listen 127.0.0.1:\(httpsPort) ssl http2;")
            .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(httpPort);")
            .replacingOccurrences(of: "/etc/letsencrypt/live/belay.example/fullchain.pem", with: certificate)
            .replacingOccurrences(of: "/etc/letsencrypt/live/belay.example/privkey.pem", with: key)
            .replacingOccurrences(of: "http://127.0.0.1:8080", with: "http://127.0.0.1:\(server.port)")
            .replacingOccurrences(of: "belay.example", with: "belay.test")
            .replacingOccurrences(of: "/var/log/nginx/belay-access.log", with: directory.file("nginx/logs/access.log"))
        #expect(site.contains("proxy_pass http://127.0.0.1:\(server.port);"))
        try FileManager.default.createDirectory(atPath: directory.file("nginx/logs"), withIntermediateDirectories: true)
        try site.write(toFile: directory.file("nginx/site.conf"), atomically: true, encoding: .utf8)
        let main = """
            \(getuid() == 0 ? "user root;" : "")
            worker_processes 1;
            pid \(directory.file("nginx/nginx.pid"));
            error_log \(directory.file("nginx/logs/error.log")) warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(directory.file("nginx/body"));
                proxy_temp_path \(directory.file("nginx/proxy"));
                fastcgi_temp_path \(directory.file("nginx/fastcgi"));
                uwsgi_temp_path \(directory.file("nginx/uwsgi"));
                scgi_temp_path \(directory.file("nginx/scgi"));
                include \(directory.file("nginx/site.conf"));
            }
            """
        try main.write(toFile: directory.file("nginx/nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-p", directory.file("nginx"), "-c", directory.file("nginx/nginx.conf"), "-g", "daemon off;"]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        defer { nginx.terminate(); nginx.waitUntilExit() }

        let slugPath = "/s/" + (link.split(separator: "/").last.map(String.init) ?? "")
        func curl(_ path: String, _ extra: [String] = []) throws -> (status: Int32, standardOutput: String, standardError: String) {
            try ExternalTool.output("/usr/bin/curl", ["-sS", "--retry", "20", "--retry-connrefused", "--retry-delay", "0",
                                                      "--cacert", certificate, "--resolve", "belay.test:\(httpsPort):127.0.0.1",
                                                      "--interface", "127.0.0.2", "-w", "\n%{http_code} %{http_version}"]
                                    + extra + ["https://belay.test:\(httpsPort)\(path)"], timeout: 60)
        }
        let page = try curl(slugPath)
        #expect(page.status == 0, "curl: \(page.standardError)")
        #expect(page.standardOutput.hasSuffix("\n200 2"), "the page over HTTP/2: \(page.standardOutput.suffix(40))")
        #expect(page.standardOutput.contains("더클라임 강남점"))
        let me = try curl("/v1/me", ["-H", "Authorization: Bearer \(token)"])
        #expect(me.standardOutput.hasSuffix("\n200 2"))
        #expect(me.standardOutput.contains("\"handle\":\"minji\""))
        // Belay saw the client nginx served (127.0.0.2), not nginx itself.
        let logged = server.waitForErrorLine(timeout: 10) { $0.contains("GET /v1/me 200") }
        #expect(logged?.contains("client=127.0.0.2") == true, "access log: \(logged ?? "none")")
        // Plain HTTP is sent to HTTPS.
        let plain = try ExternalTool.output("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
                                                              "http://127.0.0.1:\(httpPort)\(slugPath)"])
        #expect(plain.standardOutput.hasPrefix("301 https://"))
        // nginx's own access log has the requests without the share page's address.
        let accessLog = try String(contentsOfFile: directory.file("nginx/logs/access.log"), encoding: .utf8)
        #expect(accessLog.contains("\"GET /s/... HTTP/2.0\" 200"), "\(accessLog)")
        #expect(accessLog.contains("\"GET /v1/me HTTP/2.0\" 200"))
        let slug = String(slugPath.dropFirst(3))
        #expect(!slug.isEmpty && !accessLog.contains(slug), "the slug is a credential: \(accessLog)")
    }
}
