import Synchronization

/// Stickers rendered without a badge credential, by the digest of their content key, kept in
/// memory for the render workers of one process to share.
///
/// At one meetup most members draw the same few holds on the same place and date: their
/// stickers differ only in the credential, which is a chunk of its own in the PNG. With this
/// cache such a sticker is drawn once and each member's copy is the cached one with their
/// credential baked in. Bounded by bytes; the entry used least recently goes first.
final class StickerBaseCache: Sendable {
    /// The most bytes kept (about 45 stickers at 3x).
    let capacityBytes: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [String: (bytes: [UInt8], lastUse: UInt64)] = [:]
        var totalBytes = 0
        var clock: UInt64 = 0
    }

    init(capacityBytes: Int = 32 << 20) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// The sticker stored under `digest`, if it is kept.
    func sticker(digest: String) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries[digest] else { return nil }
            state.clock += 1
            state.entries[digest] = (entry.bytes, state.clock)
            return entry.bytes
        }
    }

    /// Keeps `bytes` under `digest`, making room by dropping the entries used least recently;
    /// a sticker larger than the whole cache is not kept.
    func keep(_ bytes: [UInt8], digest: String) {
        guard bytes.count <= capacityBytes else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: digest) { state.totalBytes -= old.bytes.count }
            while state.totalBytes + bytes.count > capacityBytes,
                  let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.totalBytes -= oldest.value.bytes.count
            }
            state.clock += 1
            state.entries[digest] = (bytes, state.clock)
            state.totalBytes += bytes.count
        }
    }

    /// How many stickers are kept now.
    var count: Int { state.withLock { $0.entries.count } }
}
