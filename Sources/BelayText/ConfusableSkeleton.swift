import CICUShim
import Synchronization

/// Unicode's confusable skeletons (UTS #39) through ICU's spoof checker: two strings that look
/// alike (`pаypal` with a Cyrillic `а`, `rn` and `m`) have the same skeleton.
///
/// Owns one `USpoofChecker`, closed in `deinit`. ICU allows concurrent skeleton calls on a
/// configured checker; a lock guards it anyway, since screening runs only on writes.
public final class ConfusableSkeleton: Sendable {
    private let checker: Mutex<UnsafeMutableRawPointer>

    /// The error when ICU cannot make a spoof checker (its data is missing).
    public struct Unavailable: Error, CustomStringConvertible {
        public let status: Int32
        public var description: String { "ICU could not open its spoof checker (UErrorCode \(status)); is libicu's data installed?" }
    }

    /// - Throws: `Unavailable` when ICU cannot open a spoof checker.
    public init() throws {
        var status: Int32 = 0
        guard let opened = belay_spoof_open(&status) else { throw Unavailable(status: status) }
        checker = Mutex(opened)
    }

    deinit {
        checker.withLock { belay_spoof_close($0) }
    }

    /// The skeleton of `text`; `text` itself when ICU refuses it (it never does for valid UTF-16).
    public func skeleton(of text: String) -> String {
        let source = Array(text.utf16)
        guard !source.isEmpty else { return "" }
        return checker.withLock { checker -> String in
            var capacity = source.count * 2 + 16
            while true {
                var overflow: Int32 = 0, failed: Int32 = 0
                var destination = [UInt16](repeating: 0, count: capacity)
                let length = belay_spoof_skeleton(checker, source, Int32(source.count), &destination, Int32(capacity), &overflow, &failed)
                if overflow == 1 && Int(length) > capacity {
                    capacity = Int(length) + 1
                    continue
                }
                guard failed == 0 else { return text }
                return String(decoding: destination.prefix(Int(length)), as: UTF16.self)
            }
        }
    }
}
