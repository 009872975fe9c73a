#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Values remembered for a short time, shared by threads: the memory behind the API's small
/// caches (authenticated tokens, response bodies). An entry older than `lifetime` is gone;
/// when `capacity` entries are held, the memory starts over (cheap, bounded, and the next
/// requests fill it again).
final class ExpiringMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let value: Value
        let storedAt: UInt64
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let lifetimeNanoseconds: UInt64
    private let capacity: Int

    /// - Parameters:
    ///   - lifetime: how long an entry is fresh; zero remembers nothing.
    ///   - capacity: entries held at most.
    init(lifetime: Duration, capacity: Int) {
        let (seconds, attoseconds) = lifetime.components
        lifetimeNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.capacity = max(1, capacity)
    }

    /// The value stored for `key`, while fresh.
    func value(for key: Key) -> Value? {
        guard lifetimeNanoseconds > 0 else { return nil }
        let now = Self.now()
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now &- entry.storedAt < lifetimeNanoseconds else {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Remembers `value` for `key`, unless `isStale` (asked under the lock) says otherwise.
    func store(_ value: Value, for key: Key, unless isStale: () -> Bool = { false }) {
        guard lifetimeNanoseconds > 0 else { return }
        let now = Self.now()
        entries.withLock { entries in
            guard !isStale() else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, storedAt: now)
        }
    }

    /// Forgets everything; `whileLocked` runs before, under the same lock (so no `store`
    /// runs between the two).
    func removeAll(whileLocked: () -> Void = {}) {
        entries.withLock { entries in
            whileLocked()
            entries.removeAll(keepingCapacity: true)
        }
    }

    private static func now() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
