import BelayCore
import Synchronization

/// Values remembered for a short time, shared by threads: the memory behind the API's small
/// caches (authenticated tokens, response bodies). An entry older than `lifetime` is gone;
/// when `capacity` entries, or entries costing `maximumCost` in all, are held, the memory
/// starts over (cheap, bounded, and the next requests fill it again). A value costing more
/// than `maximumCost` alone is not kept.
final class ExpiringMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let value: Value
        let storedAt: UInt64
    }

    private struct Contents: Sendable {
        var entries: [Key: Entry] = [:]
        var totalCost = 0
    }

    private let contents = Mutex<Contents>(Contents())
    private let lifetimeNanoseconds: UInt64
    private let capacity: Int
    private let maximumCost: Int
    private let cost: @Sendable (Value) -> Int
    private let clock: any TimeSource

    /// - Parameters:
    ///   - lifetime: how long an entry is fresh; zero remembers nothing.
    ///   - capacity: entries held at most.
    ///   - maximumCost: the most the held entries may cost together (`Int.max`: no bound).
    ///   - clock: whose monotonic clock ages the entries.
    ///   - cost: what one value costs (its size in bytes, say); 0 when not given.
    init(lifetime: Duration, capacity: Int, maximumCost: Int = .max, clock: any TimeSource,
         cost: @escaping @Sendable (Value) -> Int = { _ in 0 }) {
        let (seconds, attoseconds) = lifetime.components
        lifetimeNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.capacity = max(1, capacity)
        self.maximumCost = max(0, maximumCost)
        self.cost = cost
        self.clock = clock
    }

    /// How many entries are held, and what they cost together.
    var usage: (count: Int, cost: Int) {
        contents.withLock { ($0.entries.count, $0.totalCost) }
    }

    /// The value stored for `key`, while fresh.
    func value(for key: Key) -> Value? {
        guard lifetimeNanoseconds > 0 else { return nil }
        let now = clock.monotonicNanoseconds()
        return contents.withLock { contents in
            guard let entry = contents.entries[key] else { return nil }
            guard now &- entry.storedAt < lifetimeNanoseconds else {
                contents.entries[key] = nil
                contents.totalCost -= cost(entry.value)
                return nil
            }
            return entry.value
        }
    }

    /// The values stored for `keys`, each while fresh: one lock and one clock reading for all.
    func values(for keys: [Key]) -> [Value?] {
        guard lifetimeNanoseconds > 0 else { return keys.map { _ in nil } }
        let now = clock.monotonicNanoseconds()
        return contents.withLock { contents in
            keys.map { key in
                guard let entry = contents.entries[key], now &- entry.storedAt < lifetimeNanoseconds else { return nil }
                return entry.value
            }
        }
    }

    /// Remembers `value` for `key`, unless `isStale` (asked under the lock) says otherwise.
    func store(_ value: Value, for key: Key, unless isStale: () -> Bool = { false }) {
        guard lifetimeNanoseconds > 0 else { return }
        let now = clock.monotonicNanoseconds()
        let valueCost = cost(value)
        guard valueCost <= maximumCost else { return }
        contents.withLock { contents in
            guard !isStale() else { return }
            if let old = contents.entries.removeValue(forKey: key) { contents.totalCost -= cost(old.value) }
            if contents.entries.count >= capacity || contents.totalCost > maximumCost - valueCost {
                contents.entries.removeAll(keepingCapacity: true)
                contents.totalCost = 0
            }
            contents.entries[key] = Entry(value: value, storedAt: now)
            contents.totalCost += valueCost
        }
    }

    /// Forgets everything; `whileLocked` runs before, under the same lock (so no `store`
    /// runs between the two).
    func removeAll(whileLocked: () -> Void = {}) {
        contents.withLock { contents in
            whileLocked()
            contents.entries.removeAll(keepingCapacity: true)
            contents.totalCost = 0
        }
    }
}
