import BelayCore
import BelayOutbound
import CCurlShim
import Foundation

/// Where temporary credentials come from when no key is configured: the places the AWS SDKs
/// look after the `AWS_ACCESS_KEY_ID` variables, in their order. Each gives a key pair, a
/// session token and the time they expire.
public enum PlatformCredentialSource: Sendable, Equatable, CustomStringConvertible {
    /// A web identity token (EKS's service-account token, GitHub's OIDC token, …) in
    /// `tokenFile`, exchanged at STS by `AssumeRoleWithWebIdentity` for `roleARN`. The file is
    /// read again at every exchange, as the platform rotates it.
    case webIdentity(tokenFile: String, roleARN: String, sessionName: String, stsEndpoint: String)
    /// ECS (and other container platforms): `GET url`, with `Authorization` from
    /// `authorizationFile` (read at every fetch) or `authorization` when either is given.
    case container(url: String, authorization: String, authorizationFile: String)
    /// EC2's instance metadata service, IMDSv2: a session token by `PUT`, then the role and
    /// its credentials by `GET` under `endpoint`.
    case instanceMetadata(endpoint: String)

    /// EC2's instance metadata service.
    public static let instanceMetadataEndpoint = "http://169.254.169.254"
    /// ECS's credentials endpoint, which `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` is relative to.
    public static let containerEndpoint = "http://169.254.170.2"

    /// The source the environment points at, in the AWS SDKs' order: web identity
    /// (`AWS_WEB_IDENTITY_TOKEN_FILE` with `AWS_ROLE_ARN`), the container's credentials
    /// (`AWS_CONTAINER_CREDENTIALS_FULL_URI` or `…_RELATIVE_URI`), else the instance metadata
    /// service (at `AWS_EC2_METADATA_SERVICE_ENDPOINT` when set) unless
    /// `AWS_EC2_METADATA_DISABLED` is `true`. STS is reached at `AWS_ENDPOINT_URL_STS` when
    /// set, else in `AWS_REGION` (or `AWS_DEFAULT_REGION`), else at the global endpoint.
    public static func fromEnvironment(_ environment: [String: String]) -> PlatformCredentialSource? {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        if let tokenFile = value("AWS_WEB_IDENTITY_TOKEN_FILE"), let role = value("AWS_ROLE_ARN") {
            let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION")
            let sts = value("AWS_ENDPOINT_URL_STS") ?? region.map { "https://sts.\($0).amazonaws.com" } ?? "https://sts.amazonaws.com"
            let session = value("AWS_ROLE_SESSION_NAME") ?? "belay-\(ProcessInfo.processInfo.processIdentifier)"
            return .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: session, stsEndpoint: sts)
        }
        if let url = value("AWS_CONTAINER_CREDENTIALS_FULL_URI")
            ?? value("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").map({ containerEndpoint + ($0.hasPrefix("/") ? $0 : "/" + $0) }) {
            return .container(url: url, authorization: value("AWS_CONTAINER_AUTHORIZATION_TOKEN") ?? "",
                              authorizationFile: value("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") ?? "")
        }
        if value("AWS_EC2_METADATA_DISABLED")?.lowercased() == "true" { return nil }
        return .instanceMetadata(endpoint: value("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? instanceMetadataEndpoint)
    }

    public var description: String {
        switch self {
        case let .webIdentity(tokenFile, role, _, sts): return "web identity (\(tokenFile) for \(role) at \(sts))"
        case let .container(url, _, _): return "container credentials (\(url))"
        case let .instanceMetadata(endpoint): return "instance metadata (\(endpoint))"
        }
    }

    /// Temporary credentials and when they expire.
    public struct Issued: Sendable, Equatable {
        public var credentials: ObjectStoreCredentials
        /// nil when the source gave no expiry (they are then asked again hourly).
        public var expiration: Date?
    }

    /// Asks the source for credentials, trying once; `timeoutSeconds` bounds each request.
    /// - Throws: `ObjectStoreError` (`isTransient` when the source did not answer or failed
    ///   with a 5xx; otherwise its refusal, naming the variable at fault).
    func fetch(using pool: CurlHandlePool, timeoutSeconds: Double) throws -> Issued {
        let http = PlatformHTTP(pool: pool, timeoutSeconds: timeoutSeconds, source: "\(self)")
        switch self {
        case let .webIdentity(tokenFile, role, session, sts):
            guard let token = try? String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
                  !token.isEmpty else {
                throw ObjectStoreError.setting("AWS_WEB_IDENTITY_TOKEN_FILE", "names \(tokenFile), which cannot be read or is empty")
            }
            let form = [("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", role),
                        ("RoleSessionName", session), ("WebIdentityToken", token)]
                .map { SigV4Signer.encode($0.0, keepSlash: false) + "=" + SigV4Signer.encode($0.1, keepSlash: false) }
                .joined(separator: "&")
            let endpoint = sts.hasSuffix("/") ? sts : sts + "/"
            let answer = try http.send("POST", endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded"),
                                                                   ("Accept", "application/xml")], body: Array(form.utf8))
            let text = String(decoding: answer.body, as: UTF8.self)
            guard answer.status == 200 else {
                throw ObjectStoreError(.refused(status: answer.status, code: S3XML.value("Code", in: text) ?? "",
                                                message: S3XML.value("Message", in: text) ?? ""),
                                       operation: "assume role with web identity", target: role)
            }
            guard let credentials = S3XML.elements("Credentials", in: text).first, let key = S3XML.value("AccessKeyId", in: credentials),
                  let secret = S3XML.value("SecretAccessKey", in: credentials), let sessionToken = S3XML.value("SessionToken", in: credentials) else {
                throw ObjectStoreError(.unreadableAnswer(detail: "no Credentials in STS's answer"), operation: "assume role with web identity", target: role)
            }
            return Issued(credentials: ObjectStoreCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: sessionToken),
                          expiration: S3XML.value("Expiration", in: credentials).flatMap(S3Client.isoDate))
        case let .container(url, authorization, authorizationFile):
            var headers = [("Accept", "application/json")]
            if !authorizationFile.isEmpty {
                guard let token = try? String(contentsOfFile: authorizationFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else {
                    throw ObjectStoreError.setting("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "names \(authorizationFile), which cannot be read")
                }
                headers.append(("Authorization", token))
            } else if !authorization.isEmpty {
                headers.append(("Authorization", authorization))
            }
            return try Self.readCredentialDocument(http.expect(http.send("GET", url, headers: headers), operation: "get credentials", target: url),
                                                   target: url)
        case let .instanceMetadata(endpoint):
            let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
            let tokenAnswer = try http.expect(http.send("PUT", base + "/latest/api/token", headers: [("X-aws-ec2-metadata-token-ttl-seconds", "21600")],
                                                        body: []),
                                              operation: "get a metadata token", target: base)
            let token = String(decoding: tokenAnswer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let path = base + "/latest/meta-data/iam/security-credentials/"
            let roles = try http.expect(http.send("GET", path, headers: [("X-aws-ec2-metadata-token", token)]),
                                        operation: "find the instance's role", target: base)
            guard let role = String(decoding: roles, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map({ $0.trimmingCharacters(in: .whitespaces) }), !role.isEmpty else {
                throw ObjectStoreError(.unreadableAnswer(detail: "the instance has no IAM role; attach an instance profile, or configure images.s3.access_key_id"),
                                       operation: "find the instance's role", target: base)
            }
            let document = try http.expect(http.send("GET", path + SigV4Signer.encode(role, keepSlash: false),
                                                     headers: [("X-aws-ec2-metadata-token", token)]),
                                           operation: "get the role's credentials", target: role)
            return try Self.readCredentialDocument(document, target: role)
        }
    }

    /// The JSON the instance metadata and container endpoints answer:
    /// `{"AccessKeyId", "SecretAccessKey", "Token", "Expiration"}` (and `Code` from EC2).
    static func readCredentialDocument(_ body: [UInt8], target: String) throws -> Issued {
        guard let document = try? JSONParser.parse(body) else {
            throw ObjectStoreError(.unreadableAnswer(detail: "not JSON"), operation: "get credentials", target: target)
        }
        if let code = document["Code"]?.stringValue, code != "Success" {
            throw ObjectStoreError(.refused(status: 200, code: code, message: document["Message"]?.stringValue ?? ""),
                                   operation: "get credentials", target: target)
        }
        guard let key = document["AccessKeyId"]?.stringValue, !key.isEmpty,
              let secret = document["SecretAccessKey"]?.stringValue, !secret.isEmpty else {
            throw ObjectStoreError(.unreadableAnswer(detail: "no AccessKeyId and SecretAccessKey"), operation: "get credentials", target: target)
        }
        let token = document["Token"]?.stringValue ?? document["SessionToken"]?.stringValue
        return Issued(credentials: ObjectStoreCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token?.isEmpty == true ? nil : token),
                      expiration: document["Expiration"]?.stringValue.flatMap(S3Client.isoDate))
    }
}

/// The few plain HTTP requests of the credential sources, over the module's libcurl handles.
private struct PlatformHTTP {
    let pool: CurlHandlePool
    let timeoutSeconds: Double
    let source: String

    struct Answer {
        let status: Int
        let body: [UInt8]
    }

    func send(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]? = nil) throws -> Answer {
        do {
            return try pool.withHandle { easy in
                let handle = easy.handle
                for (name, value) in headers + [("Expect", "")] { try easy.appendHeader("\(name): \(value)") }
                let timeout = max(1, Int(timeoutSeconds * 1000))
                var codes: [CURLcode] = [
                    belay_curl_setopt_string(handle, CURLOPT_URL, url),
                    belay_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
                    belay_curl_setopt_string(handle, CURLOPT_USERAGENT, "Belay"),
                    belay_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"),
                    belay_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
                    belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
                    belay_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeout),
                    belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout),
                    easy.installHeaders(),
                    belay_curl_capture_body(handle, easy.body),
                    easy.captureErrorText(),
                ]
                switch (method, body) {
                case let ("PUT", bytes?):
                    codes.append(easy.setUpload(bytes))
                case let (_, bytes?):
                    let sent = bytes.isEmpty ? [UInt8(0)] : bytes
                    codes.append(sent.withUnsafeBytes { belay_curl_setopt_body(handle, $0.baseAddress, bytes.count) })
                case (_, nil):
                    break
                }
                if let failed = codes.first(where: { $0 != CURLE_OK }) {
                    throw ObjectStoreError(.unreachable(detail: "libcurl refused an option: \(String(cString: curl_easy_strerror(failed)))"),
                                           operation: "get credentials", target: source)
                }
                let result = curl_easy_perform(handle)
                guard result == CURLE_OK else {
                    throw ObjectStoreError(.unreachable(detail: easy.failureText(for: result)), operation: "get credentials", target: source)
                }
                return Answer(status: Int(belay_curl_response_code(handle)), body: easy.responseBytes)
            }
        } catch let error as ObjectStoreError {
            throw error
        } catch {
            throw ObjectStoreError(.unreachable(detail: "\(error)"), operation: "get credentials", target: source)
        }
    }

    /// The body of a 2xx; otherwise the refusal (transient when 5xx).
    func expect(_ answer: Answer, operation: String, target: String) throws -> [UInt8] {
        guard (200...299).contains(answer.status) else {
            let text = String(decoding: answer.body.prefix(512), as: UTF8.self)
            throw ObjectStoreError(.refused(status: answer.status, code: "", message: text.trimmingCharacters(in: .whitespacesAndNewlines)),
                                   operation: operation, target: target)
        }
        return answer.body
    }
}
