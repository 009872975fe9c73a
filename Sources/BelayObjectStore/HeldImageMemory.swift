import Foundation
import Synchronization

/// The images one process has lately uploaded to the bucket or found there, each with when the
/// bucket last dated it, so that a render reusing one (identical stories are common) need not
/// ask the bucket again. An entry is only trusted while it is younger than the store's
/// `refreshAge`, exactly as long as a `HEAD` answering that date would be: past that the store
/// asks, and dates the object again, before a reward points at it.
///
/// Bounded: past `capacity` entries it starts afresh (the cost is one `HEAD` each).
///
/// Thread-safe.
final class HeldImageMemory: Sendable {
    private let dates = Mutex<[String: Date]>([:])
    let capacity: Int

    init(capacity: Int = 8_192) {
        self.capacity = capacity
    }

    /// When the bucket last dated the object at `key`, as far as this process knows.
    func dated(_ key: String) -> Date? {
        dates.withLock { $0[key] }
    }

    /// The object at `key` is in the bucket, dated `date`.
    func remember(_ key: String, dated date: Date) {
        dates.withLock { dates in
            if dates.count >= capacity, dates[key] == nil { dates.removeAll(keepingCapacity: true) }
            dates[key] = date
        }
    }

    /// The object at `key` may be gone.
    func forget(_ key: String) {
        _ = dates.withLock { $0.removeValue(forKey: key) }
    }
}
