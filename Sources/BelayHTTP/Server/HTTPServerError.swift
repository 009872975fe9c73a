/// Why the server could not start or could not serve a file.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case invalidSettings(setting: String, problem: String)
        case cannotListen(host: String, port: Int, reason: String)
        case alreadyStarted
        case fileUnreadable(path: String, reason: String)
        case undeclaredPathParameter(name: String)
    }

    let kind: Kind

    static func invalidSettings(_ setting: String, _ problem: String) -> HTTPServerError {
        HTTPServerError(kind: .invalidSettings(setting: setting, problem: problem))
    }

    static func fileUnreadable(path: String, reason: String) -> HTTPServerError {
        HTTPServerError(kind: .fileUnreadable(path: path, reason: reason))
    }

    public var description: String {
        switch kind {
        case let .invalidSettings(setting, problem):
            "Invalid server setting `\(setting)`: \(problem)."
        case let .cannotListen(host, port, reason):
            "Cannot listen on \(host) port \(port): \(reason). Choose another port (0 picks a free one) or stop the process using it."
        case .alreadyStarted:
            "The HTTP server is already running; stop it before starting it again."
        case let .fileUnreadable(path, reason):
            "Cannot serve the file \(path): \(reason)."
        case let .undeclaredPathParameter(name):
            "The handler asked for path parameter `\(name)`, which its route pattern does not declare; add `{\(name)}` to the pattern or read another parameter."
        }
    }
}
