/// An HTTP request method. Known methods are shared constants, so comparing them is cheap.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    public var description: String { rawValue }

    /// The method as a metrics label: the standard methods by name (RFC 9110 §9 plus PATCH),
    /// anything else `other`. libmicrohttpd accepts any token as a method, so a label taken from
    /// the request line would let each client create series without bound.
    public var metricLabel: String {
        switch rawValue {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE": rawValue
        default: "other"
        }
    }

    /// The method named by a NUL-terminated C string, reusing the shared constants for known methods.
    init(cString: UnsafePointer<CChar>) {
        let bytes = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "G"), UInt8(ascii: "E")) where bytes[2] == UInt8(ascii: "T") && bytes[3] == 0:
            self = .get
        case (UInt8(ascii: "P"), UInt8(ascii: "O")) where bytes[2] == UInt8(ascii: "S") && bytes[3] == UInt8(ascii: "T") && bytes[4] == 0:
            self = .post
        default:
            let name = String(cString: cString)
            switch name {
            case "HEAD": self = .head
            case "PUT": self = .put
            case "PATCH": self = .patch
            case "DELETE": self = .delete
            case "OPTIONS": self = .options
            default: self.init(rawValue: name)
            }
        }
    }
}
