import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One page in Debian's headless Chromium, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: Chromium reads commands on its fd 3 and writes answers and
/// events on its fd 4, each a JSON text ended by a NUL byte). For the tests that watch a page
/// change by itself without a reload, which `chromium --screenshot` (one shot per run) cannot:
/// screenshots at chosen moments, script evaluation, a viewport change, and every console
/// message, uncaught exception and browser log entry (a Content-Security-Policy violation is
/// one) the page caused. Call `close()` when done (a `defer`): its reader holds the page
/// while Chromium runs, and Chromium is otherwise only killed when the test process exits.
public final class ChromiumPage: @unchecked Sendable {
    /// Debian's `chromium` (`make test-deps` installs it).
    public static let executable = "/usr/bin/chromium"

    /// A DevTools failure: an error answer, a timeout, or Chromium gone.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let pid: pid_t
    private let commands: Int32
    private let condition = NSCondition()
    private var answers: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    private var nextID = 0
    private var sessionID = ""
    private var ended = false
    private var closed = false
    private let logFile: String

    /// Starts Chromium with one blank page of `width` x `height` CSS pixels.
    /// - Parameter profile: an empty directory for Chromium's profile (and its log, `chromium.log`).
    public init(width: Int, height: Int, profile: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing: make test-deps installs Debian's chromium")
        }
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        logFile = profile + "/chromium.log"
        // Chromium's ends of the two pipes become its fds 3 and 4; ours are close-on-exec, so no
        // other child started meanwhile holds them open.
        let toChromium = try Self.pipe(), fromChromium = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, toChromium.read, 3)
        posix_spawn_file_actions_adddup2(&actions, fromChromium.write, 4)
        let arguments = [Self.executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                         "--no-default-browser-check", "--disable-extensions", "--mute-audio", "--remote-debugging-pipe",
                         "--user-data-dir=\(profile)", "--window-size=\(width),\(height)", "about:blank"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let started = posix_spawn(&child, Self.executable, &actions, nil, &argv, environ)
        Glibc.close(toChromium.read)
        Glibc.close(fromChromium.write)
        guard started == 0 else {
            Glibc.close(toChromium.write)
            Glibc.close(fromChromium.read)
            throw Failure(description: "posix_spawn \(Self.executable) failed: errno \(started)")
        }
        pid = child
        commands = toChromium.write
        ChildProcessRegistry.started(child)
        let answersFD = fromChromium.read
        Thread.detachNewThread { [self] in readMessages(from: answersFD) }

        do {
            let target = try send("Target.createTarget", ["url": "about:blank"], inSession: false)
            guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target id in \(target)") }
            let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
            guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session id in \(attached)") }
            sessionID = session
            _ = try send("Page.enable")
            _ = try send("Runtime.enable")
            _ = try send("Log.enable")
            try setViewport(width: width, height: height)
        } catch {
            close()
            throw error
        }
    }

    /// Shows the page at `width` x `height` CSS pixels (one device pixel each), as a tablet or a phone would.
    public func setViewport(width: Int, height: Int, mobile: Bool = false) throws {
        _ = try send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
    }

    /// Opens `url` and waits for its `load` event.
    public func navigate(_ url: String, timeout: TimeInterval = 30) throws {
        let seen = condition.locked { events.count }
        let answer = try send("Page.navigate", ["url": url])
        if let error = answer["errorText"] as? String { throw Failure(description: "navigating to \(url): \(error)") }
        _ = try waitForEvent("Page.loadEventFired", after: seen, timeout: timeout)
    }

    /// Writes a PNG of the viewport to `path`.
    public func screenshot(to path: String) throws {
        var attempt = 0
        var answer: [String: Any] = [:]
        while true {
            do {
                answer = try send("Page.captureScreenshot", ["format": "png"])
                break
            } catch let failure as Failure where failure.description.contains("Not attached") && attempt < 10 {
                // Just after the first navigation Chromium may still be moving the page to its
                // renderer; the page is there a moment later.
                attempt += 1
                usleep(200_000)
            }
        }
        guard let base64 = answer["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no image in the screenshot's answer")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The value of `expression`, evaluated in the page (JSON values: strings, numbers, booleans, arrays, objects; nil for undefined).
    /// - Throws: when it throws in the page.
    public func evaluate(_ expression: String) throws -> Any? {
        let answer = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = answer["exceptionDetails"] { throw Failure(description: "\(expression) threw: \(exception)") }
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// The string `expression` evaluates to in the page once `accept` takes it, evaluated every
    /// tenth of a second (an evaluation that throws, as while a new page loads, counts as not
    /// yet); nil when none did within `timeout` seconds.
    public func waitFor(_ expression: String, timeout: TimeInterval, accept: (String) -> Bool) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            do {
                if let value = try evaluate(expression) as? String, accept(value) { return value }
            } catch is Failure {
                // A form sent just before: the page is being replaced (or half loaded, so the
                // expression threw); ask again. One that always throws times out (nil).
            }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }

    /// The page's accessibility tree as Chromium computes it (`Accessibility.getFullAXTree`):
    /// each node not ignored, with its role, its accessible name and its properties (`level`,
    /// `focusable`, …) by name.
    public func accessibilityTree() throws -> [(role: String, name: String, properties: [String: Any])] {
        _ = try send("Accessibility.enable")
        let answer = try send("Accessibility.getFullAXTree")
        return (answer["nodes"] as? [[String: Any]] ?? []).compactMap { node in
            guard node["ignored"] as? Bool != true else { return nil }
            let role = (node["role"] as? [String: Any])?["value"] as? String ?? ""
            let name = (node["name"] as? [String: Any])?["value"] as? String ?? ""
            var properties: [String: Any] = [:]
            for property in node["properties"] as? [[String: Any]] ?? [] {
                if let name = property["name"] as? String { properties[name] = (property["value"] as? [String: Any])?["value"] }
            }
            return (role, name, properties)
        }
    }

    /// Presses and releases `key` (`"Tab"`), as the keyboard would.
    public func press(_ key: String, code: String? = nil, keyCode: Int = 9) throws {
        for type in ["rawKeyDown", "keyUp"] {
            _ = try send("Input.dispatchKeyEvent", ["type": type, "key": key, "code": code ?? key, "windowsVirtualKeyCode": keyCode])
        }
    }

    /// Console messages, uncaught exceptions and browser log entries (CSP violations, failed
    /// loads) since the page started, one line each.
    public var messages: [String] {
        condition.locked {
            events.compactMap { event -> String? in
                guard let params = event["params"] as? [String: Any] else { return nil }
                switch event["method"] as? String {
                case "Runtime.consoleAPICalled":
                    let values = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "?")" }
                    return "console.\(params["type"] ?? "log"): " + values.joined(separator: " ")
                case "Runtime.exceptionThrown":
                    return "exception: \((params["exceptionDetails"] as? [String: Any])?["text"] ?? params)"
                case "Log.entryAdded":
                    let entry = params["entry"] as? [String: Any] ?? [:]
                    return "log.\(entry["level"] ?? "?") (\(entry["source"] ?? "?")): \(entry["text"] ?? "") \(entry["url"] ?? "")"
                default:
                    return nil
                }
            }
        }
    }

    /// Closes Chromium (and waits for it, up to five seconds, before killing it).
    public func close() {
        let wasClosed = condition.locked { () -> Bool in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        _ = try? send("Browser.close", [:], inSession: false, timeout: 5)
        Glibc.close(commands)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(5)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(50_000)
        }
        ChildProcessRegistry.ended(pid)
    }

    /// The last lines Chromium wrote to its log, for a failure's message.
    public var logTail: String {
        String((try? String(contentsOfFile: logFile, encoding: .utf8))?.suffix(2_000) ?? "")
    }

    // MARK: The protocol

    /// Sends a command (to the page's session unless `inSession` is false) and waits for its answer's `result`.
    @discardableResult
    private func send(_ method: String, _ params: [String: Any] = [:], inSession: Bool = true, timeout: TimeInterval = 30) throws -> [String: Any] {
        let id = condition.locked { () -> Int in
            nextID += 1
            return nextID
        }
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if inSession { message["sessionId"] = sessionID }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(commands, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(method): Chromium stopped reading (errno \(errno)); its log: \(logTail)")
            }
            offset += written
        }
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while answers[id] == nil {
            if ended { throw Failure(description: "\(method): Chromium exited; its log: \(logTail)") }
            if !condition.wait(until: deadline) { throw Failure(description: "\(method): no answer within \(timeout) s") }
        }
        let answer = answers.removeValue(forKey: id)!
        if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
        return answer["result"] as? [String: Any] ?? [:]
    }

    /// Waits for the event `method` of the page's session, among those after the first `index`.
    private func waitForEvent(_ method: String, after index: Int, timeout: TimeInterval) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var next = index
        while true {
            while next < events.count {
                let event = events[next]
                next += 1
                if event["method"] as? String == method, event["sessionId"] as? String == sessionID {
                    return event["params"] as? [String: Any] ?? [:]
                }
            }
            if ended { throw Failure(description: "waiting for \(method): Chromium exited; its log: \(logTail)") }
            if !condition.wait(until: deadline) { throw Failure(description: "no \(method) within \(timeout) s") }
        }
    }

    /// Reads NUL-ended messages until Chromium closes its end: answers by id, events in order.
    private func readMessages(from fd: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let end = pending.firstIndex(of: 0) {
                let text = Data(pending[..<end])
                pending.removeSubrange(...end)
                guard let message = (try? JSONSerialization.jsonObject(with: text)) as? [String: Any] else { continue }
                condition.locked {
                    if let id = message["id"] as? Int { answers[id] = message } else { events.append(message) }
                    condition.broadcast()
                }
            }
        }
        Glibc.close(fd)
        condition.locked {
            ended = true
            condition.broadcast()
        }
    }

    /// A pipe whose two ends are close-on-exec and above the fds Chromium is given (3 and 4).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        func high(_ fd: Int32) -> Int32 {
            let moved = fd <= 4 ? fcntl(fd, F_DUPFD_CLOEXEC, 10) : fd
            if moved != fd { Glibc.close(fd) }
            _ = fcntl(moved, F_SETFD, FD_CLOEXEC)
            return moved
        }
        return (high(fds[0]), high(fds[1]))
    }
}

extension NSCondition {
    fileprivate func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
