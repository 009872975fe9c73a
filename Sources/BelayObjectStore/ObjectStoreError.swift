import Foundation

/// Why a request to the object store failed: what was being done, on which key, and what to
/// do about it. Transport failures and the store's 5xx answers are transient (the request was
/// retried, and later may work); a 4xx is the request's or the settings' fault.
public struct ObjectStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// No answer: a refused or reset connection, a timeout. `detail` is libcurl's text.
        case unreachable(detail: String)
        /// An answer with an error status; `code` is S3's error code (`SlowDown`, `NoSuchKey`, …).
        case refused(status: Int, code: String, message: String)
        /// A 2xx whose body could not be read.
        case unreadableAnswer(detail: String)
        /// A bad setting found before asking the store.
        case setting(key: String, problem: String)
    }

    let kind: Kind
    /// What was being done: "upload", "read", "list", …
    public let operation: String
    /// The object (or bucket) it was done to.
    public let target: String

    init(_ kind: Kind, operation: String, target: String) {
        self.kind = kind
        self.operation = operation
        self.target = target
    }

    /// A setting the store cannot work with.
    public static func setting(_ key: String, _ problem: String) -> ObjectStoreError {
        ObjectStoreError(.setting(key: key, problem: problem), operation: "configure", target: key)
    }

    /// The HTTP status, when the store answered.
    public var status: Int? {
        if case let .refused(status, _, _) = kind { return status }
        return nil
    }

    /// S3's error code (`NoSuchBucket`, `SlowDown`, …), when the store gave one.
    public var code: String? {
        if case let .refused(_, code, _) = kind, !code.isEmpty { return code }
        return nil
    }

    /// True when the object is not there (404 on an object).
    public var isNotFound: Bool { status == 404 && code != "NoSuchBucket" }

    /// True when trying again later may work: no answer, or a 5xx (the store is down or busy).
    public var isTransient: Bool {
        switch kind {
        case .unreachable: return true
        case let .refused(status, _, _): return status >= 500 || status == 429
        case .unreadableAnswer, .setting: return false
        }
    }

    /// A short label for metrics: the status, or `transport`.
    public var metricLabel: String {
        switch kind {
        case .unreachable: return "transport"
        case let .refused(status, _, _): return String(status)
        case .unreadableAnswer: return "unreadable"
        case .setting: return "setting"
        }
    }

    public var description: String {
        switch kind {
        case let .unreachable(detail):
            return "object store: cannot \(operation) \(target): no answer (\(detail)); check images.s3.endpoint and that the store is up — renders wait and retry meanwhile"
        case let .refused(status, code, message):
            let said = [code, message].filter { !$0.isEmpty }.joined(separator: ": ")
            return "object store: cannot \(operation) \(target): HTTP \(status)\(said.isEmpty ? "" : " \(said)")\(Self.advice(status: status, code: code))"
        case let .unreadableAnswer(detail):
            return "object store: cannot \(operation) \(target): the answer could not be read (\(detail)); is images.s3.endpoint an S3-compatible store?"
        case let .setting(key, problem):
            return "object store: \(key) \(problem)"
        }
    }

    /// What to do about a refusal, naming the setting at fault.
    static func advice(status: Int, code: String) -> String {
        switch code {
        case "InvalidAccessKeyId":
            return "; the store does not know images.s3.access_key_id (or AWS_ACCESS_KEY_ID): give a key of this store's account"
        case "SignatureDoesNotMatch":
            return "; the secret does not belong to the key: check images.s3.secret_access_key_file (or AWS_SECRET_ACCESS_KEY), and images.s3.region"
        case "NoSuchBucket":
            return "; create the bucket, or fix images.s3.bucket (and images.s3.path_style for MinIO or Ceph)"
        case "AccessDenied":
            return "; give the key of images.s3.access_key_id permission to get, put, list and delete objects in images.s3.bucket"
        case "AuthorizationHeaderMalformed", "InvalidRegion", "IllegalLocationConstraintException":
            return "; images.s3.region does not match the bucket's region"
        case "SlowDown":
            return "; the store asks Belay to slow down (retried with back-off)"
        default:
            return status >= 500 ? "; the store failed (retried with back-off)" : ""
        }
    }
}
