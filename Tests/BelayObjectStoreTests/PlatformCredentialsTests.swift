import BelayCore
import BelayObjectStore
import BelayTestSupport
import Foundation
import Testing

/// Temporary credentials from the platform, end to end: moto's STS issues them (for web
/// identity directly, and behind a loopback instance metadata service and container endpoint),
/// moto's S3 checks their session token with every signature, and the fixture refuses them
/// once they expire, as AWS does.
@Suite struct PlatformCredentialsTests {
    /// Credentials live this long, so that the refresh test sees several.
    static let lifetime = 6
    private static let started = Result { try S3ServerProcess(bucket: "belay-platform", platformCredentials: true, credentialSeconds: lifetime) }

    static func server() throws -> S3ServerProcess { try started.get() }

    /// Settings of the bucket with no key: the provider gives the credentials.
    static func settings() throws -> ObjectStoreSettings {
        let server = try server()
        return ObjectStoreSettings(endpoint: server.endpoint, bucket: server.bucket, region: server.region, pathStyle: true,
                                   credentials: ObjectStoreCredentials(accessKeyID: "", secretAccessKey: ""),
                                   timeoutSeconds: 10, maxAttempts: 2, retryBaseSeconds: 0.05)
    }

    static func webIdentity(token: String? = nil) throws -> (PlatformCredentialSource, TemporaryDirectory) {
        let server = try server()
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("token").path
        try Data((token ?? server.webIdentityToken).utf8).write(to: URL(fileURLWithPath: file))
        return (.webIdentity(tokenFile: file, roleARN: server.roleARN, sessionName: "belay-test", stsEndpoint: server.endpoint), directory)
    }

    /// Puts, reads back with boto3 and fetches a presigned URL with a plain client.
    static func roundTrip(_ client: S3Client) throws {
        let key = "platform/\(UUID().uuidString.lowercased()).png"
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try client.put(key, bytes: bytes, contentType: "image/png", cacheControl: "public, max-age=31536000, immutable")
        #expect(try client.get(key) == bytes)
        let readBack = try server().readBack(prefix: key)
        #expect(readBack.map(\.sha256) == [Crypto.hex(Crypto.sha256(bytes))])
        let url = try client.presignedURL(key, seconds: 300)
        #expect(url.contains("X-Amz-Security-Token="))
        let fetched = try S3ServerProcess.fetch(url)
        #expect(fetched.status == 200 && fetched.body == bytes, "\(fetched.status) \(String(decoding: fetched.body, as: UTF8.self))")
    }

    @Test func webIdentityCredentialsSignRequestsWithTheirSessionToken() throws {
        let (source, directory) = try Self.webIdentity()
        defer { _ = directory }
        let provider = ObjectStoreCredentialProvider(source: source)
        let client = try S3Client(settings: Self.settings(), credentials: provider)
        try Self.roundTrip(client)
        let issued = try provider.current()
        #expect(issued.sessionToken?.isEmpty == false)
        #expect(provider.expiration != nil)
    }

    @Test func aRequestWithoutTheSessionTokenIsRefused() throws {
        let (source, directory) = try Self.webIdentity()
        defer { _ = directory }
        var issued = try ObjectStoreCredentialProvider(source: source).current()
        issued.sessionToken = nil
        let client = try S3Client(settings: Self.settings(), credentials: ObjectStoreCredentialProvider(fixed: issued))
        let error = try #require(throws: ObjectStoreError.self) {
            try client.put("platform/no-token", bytes: [1], contentType: "application/octet-stream")
        }
        #expect(error.status == 403, "\(error)")
    }

    @Test func aWrongWebIdentityTokenStopsTheStartWithTheRefusal() throws {
        let (source, directory) = try Self.webIdentity(token: "not-the-token")
        defer { _ = directory }
        let error = try #require(throws: ObjectStoreError.self) { try ObjectStoreCredentialProvider(source: source).refresh() }
        #expect(error.code == "InvalidIdentityToken" && !error.isTransient, "\(error)")
    }

    @Test func theInstanceMetadataServiceGivesCredentialsWithASessionTokenFirst() throws {
        let server = try Self.server()
        let before = try server.platformStats()
        let provider = ObjectStoreCredentialProvider(source: .instanceMetadata(endpoint: server.instanceMetadataEndpoint))
        try Self.roundTrip(S3Client(settings: Self.settings(), credentials: provider))
        let after = try server.platformStats()
        #expect((after["imds_tokens"] ?? 0) > (before["imds_tokens"] ?? 0))
        #expect((after["imds_credentials"] ?? 0) > (before["imds_credentials"] ?? 0))
        #expect(after["imds_refused"] == 0)
    }

    @Test func theContainerEndpointGivesCredentialsToTheAuthorizedCaller() throws {
        let server = try Self.server()
        let provider = ObjectStoreCredentialProvider(source: .container(url: server.containerCredentialsURL,
                                                                        authorization: server.containerAuthorization, authorizationFile: ""))
        try Self.roundTrip(S3Client(settings: Self.settings(), credentials: provider))
        let wrong = ObjectStoreCredentialProvider(source: .container(url: server.containerCredentialsURL, authorization: "wrong", authorizationFile: ""))
        let error = try #require(throws: ObjectStoreError.self) { try wrong.refresh() }
        #expect(error.status == 403, "\(error)")
    }

    /// The store refuses credentials once they expire; the provider's own thread fetches new
    /// ones before then, so uploads made across several lifetimes all go through.
    @Test func expiringCredentialsAreRefreshedBeforeTheStoreRefusesThem() throws {
        let server = try Self.server()
        let provider = ObjectStoreCredentialProvider(source: .instanceMetadata(endpoint: server.instanceMetadataEndpoint))
        let first = try provider.current()
        let firstExpiry = try #require(provider.expiration)
        provider.startRefreshing()
        let deadline = Deadline(after: 60)
        // Its own thread fetches the next ones, with no request asking.
        while provider.fetchCount < 2, !deadline.hasPassed { Thread.sleep(forTimeInterval: 0.05) }
        #expect(provider.fetchCount == 2)
        let client = try S3Client(settings: Self.settings(), credentials: provider)
        var uploads = 0
        // Until the first credentials have expired and the third set is held.
        while provider.fetchCount < 3 || Date() < firstExpiry.addingTimeInterval(1), !deadline.hasPassed {
            try client.put("platform/refresh-\(uploads)", bytes: [UInt8(truncatingIfNeeded: uploads)], contentType: "application/octet-stream")
            uploads += 1
        }
        #expect(provider.fetchCount >= 3)
        #expect(try provider.current() != first)
        // The first credentials are long expired: the store refuses them.
        let stale = try S3Client(settings: Self.settings(), credentials: ObjectStoreCredentialProvider(fixed: first))
        let error = try #require(throws: ObjectStoreError.self) { try stale.put("platform/stale", bytes: [1], contentType: "application/octet-stream") }
        #expect(error.code == "ExpiredToken", "\(error)")
    }

    @Test func theEnvironmentNamesTheSourceInTheSDKsOrder() {
        #expect(PlatformCredentialSource.fromEnvironment(["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r", "AWS_REGION": "eu-west-1",
                                                         "AWS_ROLE_SESSION_NAME": "s", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/x"])
                == .webIdentity(tokenFile: "/t", roleARN: "arn:r", sessionName: "s", stsEndpoint: "https://sts.eu-west-1.amazonaws.com"))
        #expect(PlatformCredentialSource.fromEnvironment(["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r", "AWS_ROLE_SESSION_NAME": "s",
                                                         "AWS_ENDPOINT_URL_STS": "http://127.0.0.1:9"])
                == .webIdentity(tokenFile: "/t", roleARN: "arn:r", sessionName: "s", stsEndpoint: "http://127.0.0.1:9"))
        #expect(PlatformCredentialSource.fromEnvironment(["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/x", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "a"])
                == .container(url: "http://169.254.170.2/v2/x", authorization: "a", authorizationFile: ""))
        #expect(PlatformCredentialSource.fromEnvironment([:]) == .instanceMetadata(endpoint: "http://169.254.169.254"))
        #expect(PlatformCredentialSource.fromEnvironment(["AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:1"])
                == .instanceMetadata(endpoint: "http://127.0.0.1:1"))
        #expect(PlatformCredentialSource.fromEnvironment(["AWS_EC2_METADATA_DISABLED": "true"]) == nil)
    }
}
