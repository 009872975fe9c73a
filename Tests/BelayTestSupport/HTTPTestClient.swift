#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why a test HTTP exchange failed.
public struct HTTPTestClientError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// One parsed HTTP response.
public struct HTTPTestResponse: Sendable {
    public let status: Int
    public let reasonPhrase: String
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    /// The first value of header `name`, ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body decoded as UTF-8 (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object, or nil when it is not one.
    public var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}

/// A small blocking HTTP/1.1 client over a raw TCP socket, for tests: it can send anything
/// (invalid UTF-8, huge declared lengths, pipelined requests, malformed request lines) and reads
/// responses exactly as the server wrote them. Every read times out, so a hung server fails the
/// test instead of hanging it.
public final class HTTPTestClient {
    private var socket: Int32
    private var buffer: [UInt8] = []
    public let port: Int

    /// Connects to `host:port` (numeric IPv4).
    /// - Throws: `HTTPTestClientError` when the connection is refused or times out.
    public init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 10) throws {
        self.port = port
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPTestClientError("socket() failed: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            // Through close(), which forgets the descriptor: deinit runs after a throw from a
            // fully initialised init and would close the number again, by then perhaps another
            // thread's (a test server's listening socket, which libmicrohttpd then aborts over).
            close()
            throw HTTPTestClientError("cannot connect to \(host):\(port): \(message)")
        }
    }

    deinit { close() }

    /// Closes the connection; further calls fail.
    public func close() {
        if socket >= 0 {
            Glibc.close(socket)
            socket = -1
        }
    }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw HTTPTestClientError("send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The bytes of a request with `Host` and, when there is a body, `Content-Length` added.
    public static func requestBytes(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Sends one request and reads its response.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> HTTPTestResponse {
        try send(Self.requestBytes(method, path, headers: headers, body: body))
        return try readResponse(forHead: method == "HEAD")
    }

    /// Sends a JSON body with `Content-Type: application/json`.
    public func request(_ method: String, _ path: String, json: String, headers: [(String, String)] = []) throws -> HTTPTestResponse {
        try request(method, path, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    /// One-shot convenience: connect, send, read, close.
    public static func request(port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> HTTPTestResponse {
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        return try client.request(method, path, headers: headers, body: body)
    }

    /// Reads the next response: status line, headers, then a body delimited by `Content-Length`,
    /// chunked encoding, or the connection closing.
    public func readResponse(forHead: Bool = false) throws -> HTTPTestResponse {
        let head = try readUntilBlankLine()
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw HTTPTestClientError("malformed status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPTestClientError("malformed header line: \(line)") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let response = { (body: [UInt8]) in
            HTTPTestResponse(status: status, reasonPhrase: parts.count > 2 ? parts[2] : "", headers: headers, body: body)
        }
        let lookup = { (name: String) in headers.first { $0.name.lowercased() == name }?.value }
        if forHead || status == 204 || status == 304 || (100..<200).contains(status) { return response([]) }
        if let length = lookup("content-length").flatMap(Int.init) {
            return response(try readExactly(length))
        }
        if lookup("transfer-encoding")?.lowercased().contains("chunked") == true {
            var body: [UInt8] = []
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                    throw HTTPTestClientError("malformed chunk size: \(sizeLine)")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    return response(body)
                }
                body += try readExactly(size)
                _ = try readLine()
            }
        }
        return response(try readToEnd())
    }

    /// Whether the server has closed the connection (reads end-of-stream without data).
    public func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var byte: UInt8 = 0
        let received = recv(socket, &byte, 1, 0)
        if received == 1 { buffer.append(byte) }
        return received == 0 || (received < 0 && errno == ECONNRESET)
    }

    // MARK: - Reading

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if received < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPTestClientError("timed out waiting for the server") }
            throw HTTPTestClientError("recv failed: \(String(cString: strerror(errno)))")
        }
        if received == 0 { return false }
        buffer += chunk[0..<received]
        return true
    }

    private func readUntilBlankLine() throws -> String {
        while true {
            if let end = findSequence([13, 10, 13, 10]) {
                let head = Array(buffer[0..<end])
                buffer.removeFirst(end + 4)
                return String(decoding: head, as: UTF8.self)
            }
            guard try fill() else { throw HTTPTestClientError("connection closed before a complete response head (\(buffer.count) bytes read)") }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = findSequence([13, 10]) {
                let line = Array(buffer[0..<end])
                buffer.removeFirst(end + 2)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw HTTPTestClientError("connection closed inside a chunked body") }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw HTTPTestClientError("connection closed after \(buffer.count) of \(count) body bytes") }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func findSequence(_ sequence: [UInt8]) -> Int? {
        guard buffer.count >= sequence.count else { return nil }
        for start in 0...(buffer.count - sequence.count) where buffer[start] == sequence[0] {
            if Array(buffer[start..<start + sequence.count]) == sequence { return start }
        }
        return nil
    }
}
