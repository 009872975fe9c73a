#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BelayTestSupport

/// A raw TCP connection from a chosen loopback source address that sends a request a few
/// bytes at a time, for tests of slow clients; it never blocks for long. Not thread-safe: one
/// thread at a time (a lock around it) uses it.
final class SlowClient: @unchecked Sendable {
    private var socket: Int32

    /// Connects to `127.0.0.1:port` from `sourceAddress` (any address in 127.0.0.0/8).
    init(port: Int, sourceAddress: String = "127.0.0.1") throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPTestClientErrorText("socket() failed: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var source = Self.address(sourceAddress, port: 0)
        var target = Self.address("127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &source) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = bound == 0 ? withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } : -1
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            // Forgotten once closed: deinit runs after this throw, and the number may already
            // be another thread's descriptor (see HTTPTestClient).
            Glibc.close(socket)
            socket = -1
            throw HTTPTestClientErrorText("cannot connect from \(sourceAddress): \(message)")
        }
    }

    deinit { if socket >= 0 { Glibc.close(socket) } }

    /// Sends `text`; false when the peer has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// Waits up to `milliseconds` for the peer to close the connection; true while it is open.
    /// Whatever the server sent meanwhile (a response) is read and dropped.
    func isOpen(waitingMilliseconds milliseconds: Int32 = 0) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready <= 0 { return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let received = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return received > 0 || (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }
}

/// Why a slow client could not connect.
struct HTTPTestClientErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
