import BelayAPI
import BelayConfig
import BelayCore
import BelayObjectStore
import BelayPipeline
import Foundation

/// The reward image store `images.store` names, built from `config.json`: the directory under
/// `data_directory`, or a bucket reached with `images.s3.*` (credentials from the settings or
/// the standard `AWS_*` variables).
public struct ImageStorage: Sendable {
    /// Where renders store reward images.
    public let store: any RewardImageStore
    /// The bucket's store, when images are in one.
    public let bucket: S3ImageStore?
    /// A client of the same bucket that tries once, briefly, for `/readyz`.
    private let probe: S3Client?
    private let publicBaseURL: String
    private let presignSeconds: Int
    private let proxy: Bool

    /// - Parameters:
    ///   - registry: where the bucket's request metrics go; nil keeps none.
    ///   - environment: where `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` are read,
    ///     and the platform's credential sources are found (`PlatformCredentialSource.fromEnvironment`).
    ///   - log: told when temporary credentials could not be refreshed (they are tried again).
    /// - Throws: `ApplicationError` naming the setting that cannot work.
    public init(configuration: BelayConfiguration, registry: MetricsRegistry?,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let images = configuration.images
        var bucket: S3ImageStore?
        var probe: S3Client?
        if images.store == .s3 {
            let settings = try Self.objectStoreSettings(configuration, environment: environment)
            let credentials = try Self.credentialProvider(for: settings, log: log)
            credentials?.startRefreshing()
            do {
                let client = try S3Client(settings: settings, credentials: credentials, metrics: ObjectStoreMetrics(registry: registry))
                var brief = settings
                brief.maxAttempts = 1
                brief.timeoutSeconds = min(settings.timeoutSeconds, 3)
                probe = try S3Client(settings: brief, credentials: client.credentials)
                bucket = S3ImageStore(client: client, prefix: images.s3.prefix)
            } catch let error as ObjectStoreError {
                throw ApplicationError(.invalidSetting(key: Self.settingKey(of: error), message: "\(error)"))
            }
        }
        self.bucket = bucket
        self.probe = probe
        store = bucket ?? ImageStore(root: RenderPipelineSettings(configuration: configuration).imagesDirectory)
        publicBaseURL = images.publicBaseURL
        presignSeconds = images.s3.presignSeconds
        proxy = images.s3.proxy
    }

    /// The bucket `images.s3.*` names, whatever `images.store` says (`belay images copy`).
    /// - Throws: `ApplicationError` naming the setting that cannot work.
    public static func bucketStore(_ configuration: BelayConfiguration,
                                   environment: [String: String] = ProcessInfo.processInfo.environment) throws -> S3ImageStore {
        guard !configuration.images.s3.bucket.isEmpty else {
            throw ApplicationError(.invalidSetting(key: "images.s3.bucket", message: "no bucket is named; set images.s3.bucket (and the other images.s3 settings) first"))
        }
        let settings = try objectStoreSettings(configuration, environment: environment)
        let credentials = try credentialProvider(for: settings)
        credentials?.startRefreshing()
        do {
            return S3ImageStore(client: try S3Client(settings: settings, credentials: credentials), prefix: configuration.images.s3.prefix)
        } catch let error as ObjectStoreError {
            throw ApplicationError(.invalidSetting(key: settingKey(of: error), message: "\(error)"))
        }
    }

    /// The bucket's address and key pair from `images.s3.*` and the environment. With no key
    /// in either, the credentials are the platform's (`credentialSource`): web identity, the
    /// container's, or the instance's metadata service.
    /// - Throws: `ApplicationError` when the secret key file cannot be read, or only half a key is given.
    public static func objectStoreSettings(_ configuration: BelayConfiguration,
                                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ObjectStoreSettings {
        let s3 = configuration.images.s3
        let accessKeyID = s3.accessKeyID.isEmpty ? environment["AWS_ACCESS_KEY_ID"] ?? "" : s3.accessKeyID
        var secret = environment["AWS_SECRET_ACCESS_KEY"] ?? ""
        if !s3.secretAccessKeyFile.isEmpty {
            guard let text = try? String(contentsOfFile: s3.secretAccessKeyFile, encoding: .utf8) else {
                throw ApplicationError(.invalidSetting(key: "images.s3.secret_access_key_file",
                                                       message: "\(s3.secretAccessKeyFile) cannot be read; name a file holding the secret access key"))
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let endpoint = s3.endpoint.isEmpty ? ObjectStoreSettings.awsEndpoint(region: s3.region) : s3.endpoint
        if accessKeyID.isEmpty, secret.isEmpty {
            guard let source = PlatformCredentialSource.fromEnvironment(environment) else {
                throw ApplicationError(.invalidSetting(key: "images.s3.access_key_id",
                                                       message: "no access key is given and AWS_EC2_METADATA_DISABLED turns the instance's credentials off; set images.s3.access_key_id or AWS_ACCESS_KEY_ID"))
            }
            return ObjectStoreSettings(endpoint: endpoint, bucket: s3.bucket, region: s3.region, pathStyle: s3.pathStyle,
                                       credentials: ObjectStoreCredentials(accessKeyID: "", secretAccessKey: ""),
                                       timeoutSeconds: Double(s3.timeoutSeconds), maxAttempts: s3.maxAttempts, caFile: s3.caFile,
                                       credentialSource: source)
        }
        guard !accessKeyID.isEmpty else {
            throw ApplicationError(.invalidSetting(key: "images.s3.access_key_id",
                                                   message: "no access key is given; set images.s3.access_key_id or AWS_ACCESS_KEY_ID"))
        }
        guard !secret.isEmpty else {
            throw ApplicationError(.invalidSetting(key: "images.s3.secret_access_key_file",
                                                   message: "no secret key is given; name a file holding it in images.s3.secret_access_key_file, or set AWS_SECRET_ACCESS_KEY"))
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return ObjectStoreSettings(endpoint: endpoint, bucket: s3.bucket, region: s3.region, pathStyle: s3.pathStyle,
                                   credentials: ObjectStoreCredentials(accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: token),
                                   timeoutSeconds: Double(s3.timeoutSeconds), maxAttempts: s3.maxAttempts, caFile: s3.caFile)
    }

    /// The platform's credentials for `settings`, fetched once now so that a start without
    /// any stops with the settings named; nil when `settings` hold a key.
    /// - Throws: `ApplicationError` naming `images.s3.access_key_id` and what was asked.
    public static func credentialProvider(for settings: ObjectStoreSettings,
                                          log: @escaping @Sendable (String) -> Void = { _ in }) throws -> ObjectStoreCredentialProvider? {
        guard let source = settings.credentialSource else { return nil }
        let provider = ObjectStoreCredentialProvider(source: source, onFailure: log)
        do {
            try provider.refresh()
        } catch {
            throw ApplicationError(.invalidSetting(key: "images.s3.access_key_id", message: """
                no access key is given (images.s3.access_key_id, images.s3.secret_access_key_file or AWS_ACCESS_KEY_ID and \
                AWS_SECRET_ACCESS_KEY), and \(source) gave no credentials: \(error)
                """))
        }
        return provider
    }

    /// Lists the bucket once, as `belay serve` and `belay worker` do before they start: wrong
    /// credentials, a missing bucket or a key without permission stop them with the setting
    /// named. A store that does not answer only returns its complaint (renders wait for it).
    /// - Returns: nil when the bucket answered (or there is none), else why it did not.
    /// - Throws: `ApplicationError` when the store refused.
    @discardableResult
    public func checkAccess() throws -> String? {
        guard let bucket else { return nil }
        do {
            try bucket.client.checkAccess(prefix: bucket.prefix)
            return nil
        } catch let error as ObjectStoreError where error.isTransient {
            return "\(error)"
        } catch let error as ObjectStoreError {
            throw ApplicationError(.invalidSetting(key: Self.settingKey(of: error), message: "\(error)"))
        }
    }

    /// `/readyz`'s line on the bucket: "ok", or what is wrong; nil without a bucket.
    public func readiness() -> String? {
        guard let bucket, let probe else { return nil }
        do {
            try probe.checkAccess(prefix: bucket.prefix)
            return "ok"
        } catch let error as ObjectStoreError where error.isTransient {
            return "unreachable (renders wait and retry): \(error.metricLabel)"
        } catch let error as ObjectStoreError {
            return "refused: \(error.code ?? error.metricLabel)"
        } catch {
            return "unreachable"
        }
    }

    /// How the API serves images in the bucket: a redirect to `images.public_base_url` when it
    /// is set, else the bytes when `images.s3.proxy` is on, else a redirect to a presigned URL;
    /// nil for the directory.
    public func serving() -> RemoteImageServing? {
        guard let bucket else { return nil }
        let base = publicBaseURL.isEmpty || publicBaseURL.hasSuffix("/") ? publicBaseURL : publicBaseURL + "/"
        let presign = presignSeconds
        let address: @Sendable (String) throws -> String? = { rowPath in
            guard Self.isImageRowPath(rowPath) else { return nil }
            let key = bucket.key(forRowPath: rowPath)
            guard base.isEmpty else { return base + key }
            do {
                return try bucket.client.presignedURL(key, seconds: presign)
            } catch {
                // Only temporary credentials the platform stopped giving end here.
                throw ImageStoreError.unavailable(bucket.location, operation: "sign a link to \(key) in", detail: "\(error)")
            }
        }
        let bytes: @Sendable (String) throws -> [UInt8] = { rowPath in
            guard Self.isImageRowPath(rowPath) else { throw ImageStoreError.missing(rowPath, operation: "read") }
            let name = rowPath.split(separator: "/").last.map(String.init) ?? ""
            guard let dot = name.firstIndex(of: ".") else { throw ImageStoreError.missing(rowPath, operation: "read") }
            return try bucket.imageBytes(digest: String(name[..<dot]), fileExtension: String(name[name.index(after: dot)...]))
        }
        // A presigned URL must outlive the redirect a client keeps.
        let maxAge = base.isEmpty ? max(0, min(presign / 2, 3600)) : 3600
        // A public address (a CDN) is where images are meant to be fetched from; without one,
        // `images.s3.proxy` chooses between sending them through and a presigned redirect.
        return RemoteImageServing(mode: proxy && base.isEmpty ? .proxy : .redirect, redirectMaxAge: maxAge, address: address, bytes: bytes)
    }

    /// `images/<2 hex>/<64 hex>.<ext>`: a reward row can never name another key.
    static func isImageRowPath(_ path: String) -> Bool {
        // On the UTF-8 bytes: it is asked on every image request, and splitting into
        // Characters cost more than signing the redirect.
        let folder = RenderPipelineSettings.imagesFolder.utf8
        let bytes = Array(path.utf8)
        let fanOut = folder.count + 1, digestStart = fanOut + 3, dot = digestStart + 64
        guard bytes.count > dot + 1, bytes.starts(with: folder), bytes[folder.count] == 0x2F, bytes[fanOut + 2] == 0x2F,
              bytes[dot] == 0x2E, bytes[digestStart..<dot].allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              bytes[fanOut] == bytes[digestStart], bytes[fanOut + 1] == bytes[digestStart + 1] else { return false }
        let fileExtension = bytes[(dot + 1)...]
        return fileExtension.elementsEqual("png".utf8) || fileExtension.elementsEqual("jpg".utf8) || fileExtension.elementsEqual("jpeg".utf8)
    }

    /// The setting a refusal of the store points at.
    static func settingKey(of error: ObjectStoreError) -> String {
        switch error.code {
        case "InvalidAccessKeyId": return "images.s3.access_key_id"
        case "SignatureDoesNotMatch": return "images.s3.secret_access_key_file"
        case "NoSuchBucket", "AccessDenied": return "images.s3.bucket"
        case "AuthorizationHeaderMalformed", "InvalidRegion": return "images.s3.region"
        default:
            if error.operation == "configure" { return error.target }
            return "images.s3.endpoint"
        }
    }
}
