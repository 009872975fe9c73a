import Foundation

/// An HTTP response: status, header fields and a body of bytes or a file region.
///
/// The server adds `Content-Length`, `Date` and, when the connection is closing, `Connection: close`.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: ResponseBody
    /// Set when the handler's work is still running: the real response comes from it (see
    /// `DeferredResponse`); status, headers and body are then placeholders.
    public internal(set) var deferred: DeferredResponse?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "text/plain; charset=utf-8") }
        return Response(status: status, headers: headers, body: ResponseBody(string: text))
    }
}

/// The body of a response. File bodies are sent by the kernel (`sendfile`) without being read into memory.
public struct ResponseBody: Sendable {
    enum Storage: Sendable {
        case bytes([UInt8])
        case data(Data)
        case file(FileRegion)
    }

    let storage: Storage

    public static let empty = ResponseBody(storage: .bytes([]))

    init(storage: Storage) { self.storage = storage }

    public init(bytes: [UInt8]) { storage = .bytes(bytes) }

    public init(data: Data) { storage = .data(data) }

    public init(string: String) { storage = .bytes(Array(string.utf8)) }

    /// A body served straight from an open file.
    public init(file: FileRegion) { storage = .file(file) }

    /// How many bytes the body sends.
    public var count: Int {
        switch storage {
        case .bytes(let bytes): bytes.count
        case .data(let data): data.count
        case .file(let region): Int(region.length)
        }
    }

    /// The body's bytes; a file region is read from disk (for tests and small files).
    public var bytes: [UInt8] {
        switch storage {
        case .bytes(let bytes): bytes
        case .data(let data): [UInt8](data)
        case .file(let region): region.readAll()
        }
    }
}
