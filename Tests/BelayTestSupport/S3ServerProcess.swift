import Foundation

/// An S3 server on loopback (`scripts/testing/s3-server.py`: moto's server mode) that checks
/// every request's signature once it has made its user, access key and bucket; and boto3
/// (`scripts/testing/s3-read-back.py`) to read back what Belay stored in it.
public final class S3ServerProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let script: ScriptProcess
    public var port: Int { script.port }
    public var endpoint: String { "http://127.0.0.1:\(port)" }
    public let accessKeyID: String
    public let secretAccessKey: String
    public let bucket: String
    public let region = "us-east-1"
    /// With `platformCredentials`: the role moto's STS issues temporary credentials for, the
    /// port of the instance metadata and container endpoints, and what they expect.
    public private(set) var roleARN = ""
    public private(set) var credentialsPort = 0
    public let webIdentityToken = "belay-web-identity-token"
    public let containerAuthorization = "belay-container-authorization"
    /// The instance metadata service's address (for `AWS_EC2_METADATA_SERVICE_ENDPOINT`).
    public var instanceMetadataEndpoint: String { "http://127.0.0.1:\(credentialsPort)" }
    /// The container endpoint's address (for `AWS_CONTAINER_CREDENTIALS_FULL_URI`).
    public var containerCredentialsURL: String { "http://127.0.0.1:\(credentialsPort)/ecs/credentials" }

    /// One object as boto3 read it back.
    public struct ObjectReadBack: Sendable, Equatable {
        public let key: String
        public let size: Int
        public let sha256: String
        public let contentType: String
        public let cacheControl: String

        public init(key: String, size: Int, sha256: String, contentType: String, cacheControl: String) {
            self.key = key
            self.size = size
            self.sha256 = sha256
            self.contentType = contentType
            self.cacheControl = cacheControl
        }
    }

    /// - Parameters:
    ///   - platformCredentials: also issue temporary credentials (web identity on this port,
    ///     instance metadata and container endpoints on `credentialsPort`), which the store
    ///     refuses `credentialSeconds` after they were issued.
    /// - Throws: when Python, moto or boto3 cannot be set up, or the server does not listen.
    public init(bucket: String = "belay-images", platformCredentials: Bool = false, credentialSeconds: Int = 3600) throws {
        var arguments = ["--bucket", bucket]
        if platformCredentials {
            arguments += ["--credentials", "--credential-seconds", String(credentialSeconds), "--web-identity-token", webIdentityToken,
                          "--container-authorization", containerAuthorization]
        }
        script = try ScriptProcess(script: "s3-server.py", arguments: arguments)
        guard let line = script.lines.first(where: { $0.hasPrefix("key ") }) else {
            throw Failure(description: "s3-server.py did not announce its key: \(script.lines)")
        }
        let parts = line.split(separator: " ")
        guard parts.count == 3 else { throw Failure(description: "s3-server.py announced \(line)") }
        accessKeyID = String(parts[1])
        secretAccessKey = String(parts[2])
        self.bucket = bucket
        if platformCredentials {
            guard let role = script.lines.first(where: { $0.hasPrefix("role ") }),
                  let port = script.lines.first(where: { $0.hasPrefix("credentials ") }).flatMap({ Int($0.dropFirst("credentials ".count)) }) else {
                throw Failure(description: "s3-server.py did not announce its role and credentials port: \(script.lines)")
            }
            roleARN = String(role.dropFirst("role ".count))
            credentialsPort = port
        }
    }

    /// What the instance metadata and container endpoints have done so far: `imds_tokens`,
    /// `imds_credentials`, `imds_refused` (no or a wrong session token), `container_credentials`,
    /// `container_refused`.
    public func platformStats() throws -> [String: Int] {
        let answer = try HTTPTestClient.request(port: credentialsPort, "GET", "/__credentials/stats")
        guard let object = answer.jsonObject else { throw Failure(description: "no stats: \(answer.text)") }
        return object.compactMapValues { $0 as? Int }
    }

    /// `GET url` by Python's standard library (a plain HTTP client, no S3 knowledge): the status,
    /// body and `Content-Type`.
    public static func fetch(_ url: String) throws -> (status: Int, body: [UInt8], contentType: String) {
        let program = """
        import sys, urllib.request, urllib.error, json, base64
        try:
            answer = urllib.request.urlopen(sys.argv[1], timeout=30)
            status, body, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, body, kind = error.code, error.read(), error.headers.get("Content-Type", "")
        print(json.dumps({"status": status, "body": base64.b64encode(body).decode(), "type": kind}))
        """
        let root = BelayProcess.packageRoot
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path, ["-c", program, url])
        guard result.status == 0, let data = result.standardOutput.data(using: .utf8),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let status = object["status"] as? Int, let body = Data(base64Encoded: object["body"] as? String ?? "") else {
            throw Failure(description: "fetching \(url) failed: \(result.standardError)")
        }
        return (status, Array(body), object["type"] as? String ?? "")
    }

    /// Every object under `prefix`, read back by boto3 (key order).
    public func readBack(prefix: String = "") throws -> [ObjectReadBack] {
        let root = BelayProcess.packageRoot
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path,
                                             [root.appendingPathComponent("scripts/testing/s3-read-back.py").path,
                                              "--endpoint", endpoint, "--bucket", bucket, "--prefix", prefix,
                                              "--key", accessKeyID, "--secret", secretAccessKey])
        guard result.status == 0, let data = result.standardOutput.data(using: .utf8),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let items = object["objects"] as? [[String: Any]] else {
            throw Failure(description: "s3-read-back.py failed (\(result.status)): \(result.standardError)")
        }
        return items.map { item in
            ObjectReadBack(key: item["key"] as? String ?? "", size: item["size"] as? Int ?? -1, sha256: item["sha256"] as? String ?? "",
                           contentType: item["content_type"] as? String ?? "", cacheControl: item["cache_control"] as? String ?? "")
        }
    }
}
