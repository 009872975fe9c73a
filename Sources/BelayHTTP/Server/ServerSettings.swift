/// How the HTTP server listens and what it accepts. Plain values; the application maps its
/// configuration file onto them, so what it sets has no default here. Only the limits the
/// configuration does not name (keep-alive, connection memory, request target and header
/// sizes) have defaults.
public struct ServerSettings: Sendable, Equatable {
    /// Address to bind: a numeric IPv4/IPv6 address or a host name. "" binds every interface.
    public var host: String
    /// TCP port; 0 binds a free port, readable from `HTTPServer.port` after `start()`.
    public var port: Int
    /// Worker threads, each running its own epoll loop and the handlers of its connections;
    /// 0 uses one per CPU core. Handlers may block (e.g. on the database), so more threads than
    /// cores can help when they do.
    public var threads: Int
    /// Seconds a connection may stay idle before it is closed; 0 never closes idle connections.
    public var connectionTimeoutSeconds: Int
    /// Seconds a request's line and headers may take to arrive: counted from the connection's
    /// opening, and for a later request on a keep-alive connection from the end of the previous
    /// one plus `connectionTimeoutSeconds`. A connection still sending them then is closed, so
    /// clients that trickle headers (slowloris) cannot hold connections. 0 disables the deadline.
    public var headerTimeoutSeconds: Int
    /// Open connections across all clients; 0 leaves libmicrohttpd's default (about 1,000).
    /// Each needs a file descriptor: `start()` raises the soft open-file limit towards what
    /// this needs, and serves fewer connections (with a warning) when the hard limit is lower.
    public var maxConnections: Int
    /// Open connections from one client address; 0 means no limit. Keep it a small share of
    /// `maxConnections`, so that a few addresses cannot take every connection.
    public var maxConnectionsPerIP: Int
    /// Largest request body accepted. A larger declared `Content-Length` is answered 413 without
    /// reading the body; a chunked body that grows past it has its connection closed.
    public var maxBodyBytes: Int
    /// Whether connections stay open between requests (HTTP/1.1 keep-alive).
    public var keepAlive: Bool
    /// Memory per connection for the request line, headers and I/O buffers; a request whose head
    /// does not fit is refused by libmicrohttpd (431). libmicrohttpd clears it for every request,
    /// so smaller is faster: 16 KiB leaves room for ~8 KiB of headers.
    public var connectionMemoryBytes: Int
    /// Longest request target (path and query) answered; a longer one gets 414 problem+json.
    /// One too long for `connectionMemoryBytes` is refused by libmicrohttpd itself (414, HTML).
    public var maxRequestTargetBytes: Int
    /// Most bytes of header fields answered; more get 431 problem+json. Headers too large for
    /// `connectionMemoryBytes` are refused by libmicrohttpd itself (431, HTML).
    public var maxHeaderBytes: Int

    public init(
        host: String,
        port: Int,
        threads: Int,
        connectionTimeoutSeconds: Int,
        headerTimeoutSeconds: Int,
        maxConnections: Int,
        maxConnectionsPerIP: Int,
        maxBodyBytes: Int,
        keepAlive: Bool = true,
        connectionMemoryBytes: Int = 16 * 1024,
        maxRequestTargetBytes: Int = 4096,
        maxHeaderBytes: Int = 6144
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.maxBodyBytes = maxBodyBytes
        self.keepAlive = keepAlive
        self.connectionMemoryBytes = connectionMemoryBytes
        self.maxRequestTargetBytes = maxRequestTargetBytes
        self.maxHeaderBytes = maxHeaderBytes
    }

    /// Checks every value, naming the first bad one.
    /// - Throws: `HTTPServerError` naming the setting and its allowed range.
    public func validate() throws {
        if !(0...65535).contains(port) { throw HTTPServerError.invalidSettings("port", "\(port) is outside 0–65535") }
        if !(0...1024).contains(threads) { throw HTTPServerError.invalidSettings("threads", "\(threads) is outside 0–1024 (0 means one per core)") }
        if connectionTimeoutSeconds < 0 || connectionTimeoutSeconds > 86_400 {
            throw HTTPServerError.invalidSettings("connection_timeout_seconds", "\(connectionTimeoutSeconds) is outside 0–86400")
        }
        if headerTimeoutSeconds < 0 || headerTimeoutSeconds > 86_400 {
            throw HTTPServerError.invalidSettings("header_timeout_seconds", "\(headerTimeoutSeconds) is outside 0–86400")
        }
        if maxConnections < 0 || maxConnections > 1_000_000 {
            throw HTTPServerError.invalidSettings("max_connections", "\(maxConnections) is outside 0–1000000")
        }
        if maxConnectionsPerIP < 0 || maxConnectionsPerIP > 1_000_000 {
            throw HTTPServerError.invalidSettings("max_connections_per_ip", "\(maxConnectionsPerIP) is outside 0–1000000")
        }
        if maxBodyBytes < 0 { throw HTTPServerError.invalidSettings("max_body_bytes", "\(maxBodyBytes) is negative") }
        if connectionMemoryBytes < 4096 || connectionMemoryBytes > 1 << 20 {
            throw HTTPServerError.invalidSettings("connection_memory_bytes", "\(connectionMemoryBytes) is outside 4096–1048576")
        }
        if maxRequestTargetBytes < 256 { throw HTTPServerError.invalidSettings("max_request_target_bytes", "\(maxRequestTargetBytes) is below 256") }
        if maxHeaderBytes < 1024 { throw HTTPServerError.invalidSettings("max_header_bytes", "\(maxHeaderBytes) is below 1024") }
        if host.utf8.contains(0) { throw HTTPServerError.invalidSettings("host", "contains a NUL byte") }
    }
}
