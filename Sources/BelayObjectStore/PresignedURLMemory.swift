import Foundation
import Synchronization

/// The presigned URLs made in the current signing window, by key, so that an image asked for
/// again within the window is redirected to the same address without signing anew: the
/// address is the same for every client in the window, so browsers and a cache in front of the
/// bucket can keep it. A new window starts afresh.
///
/// Bounded: past `capacity` URLs in one window it starts afresh too.
///
/// Thread-safe.
final class PresignedURLMemory: Sendable {
    private struct Window {
        var start: Int64 = .min
        var urls: [String: String] = [:]
    }

    private let window = Mutex(Window())
    let capacity: Int

    init(capacity: Int = 16_384) {
        self.capacity = capacity
    }

    /// The URL made for `name` in the window starting at `start` (seconds since 1970).
    func url(_ name: String, windowStart start: Int64) -> String? {
        window.withLock { $0.start == start ? $0.urls[name] : nil }
    }

    /// Keeps `url` for `name` in the window starting at `start`.
    func keep(_ url: String, for name: String, windowStart start: Int64) {
        window.withLock { window in
            if window.start != start || window.urls.count >= capacity {
                window = Window(start: start, urls: [:])
            }
            window.urls[name] = url
        }
    }
}
