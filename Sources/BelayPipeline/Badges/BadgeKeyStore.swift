import BelayCore
import BelayDomain
import Foundation
import Glibc
import Synchronization

/// The club's badge signing keys, in a directory of their own under the data directory
/// (`<data>/badge-keys`, mode 0700): one `<thumbprint>.key` file per key (the base64url seed,
/// mode 0600), and `current` naming the key that signs new badges. Keys are never deleted:
/// after a rotation the old public keys stay published, so earlier badges still verify.
/// Beside them, `member-secret` (mode 0600) keys the hash that stands for a member in their
/// badges; it never rotates, so a member keeps one identity across keys.
///
/// Several processes (the server, the CLI) may use the same directory: files are written to
/// a temporary name and renamed into place.
///
/// Nodes on separate machines must sign with the same keys and name members by the same
/// secret, or a badge one node issued does not verify on another. Such nodes are given a copy
/// of one directory (`rewards.badge_keys_directory`) and made with `makesKeys` false: a key or
/// secret missing there is then refused rather than made, as a node that made its own would
/// issue badges no other node knows.
public struct BadgeKeyStore: Sendable {
    public let directory: URL
    /// Whether the first use makes the key and secret (a node's own directory), or finds them
    /// missing (a directory every node holds a copy of).
    public let makesKeys: Bool
    /// The paths `revision()` looks at, worked out once: it runs on every request for a
    /// public badge answer, where building them from the URL cost more than the rest.
    private let directoryPath: String
    private let currentPath: String
    private let lastRevision = RevisionMemo()

    public init(directory: URL, makesKeys: Bool = true) {
        self.directory = directory
        self.makesKeys = makesKeys
        directoryPath = directory.path
        currentPath = directory.appendingPathComponent("current").path
    }

    /// The key that signs new badges, made on first use.
    /// - Throws: `PipelineError` when the directory cannot be created or read, or a key file
    ///   is damaged.
    public func current() throws -> Ed25519Key {
        if let name = try? String(contentsOf: directory.appendingPathComponent("current"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
            return try key(thumbprint: name)
        }
        guard makesKeys else {
            throw PipelineError.invalidSetting("rewards.badge_keys_directory", "\(directory.path) holds no badge key; run `belay badges rotate-key` once and give every node a copy of the directory")
        }
        return try rotate()
    }

    /// Makes a new key and makes it the current one; earlier keys stay.
    /// - Throws: `PipelineError` when the directory refuses the write.
    @discardableResult
    public func rotate() throws -> Ed25519Key {
        let key = try Ed25519Key.generate()
        try prepareDirectory()
        try write(Crypto.base64URL(key.seed) + "\n", to: "\(key.thumbprint).key")
        try write(key.thumbprint + "\n", to: "current")
        _ = try memberSecret(making: true)
        return key
    }

    /// Every key ever made here, the current one first.
    /// - Throws: `PipelineError` when a key file is damaged.
    public func all() throws -> [Ed25519Key] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let current = try? current().thumbprint
        let keys = try names.filter { $0.hasSuffix(".key") }.sorted().map { try key(thumbprint: String($0.dropLast(4))) }
        return keys.filter { $0.thumbprint == current } + keys.filter { $0.thumbprint != current }
    }

    /// A stamp that changes whenever the keys may have: the device, inode, size and change
    /// and modification times of the directory and of `current`. Key files are written under
    /// a temporary name and renamed into place, which changes the directory; a key file's
    /// content is checked against its name, so it cannot change unseen. The two `stat` calls
    /// are made at most once a second (on every request they were a tenth of a public badge
    /// answer's CPU): what is built from the keys (the issuer profile, the status lists) is
    /// kept until they change, a key made by another process (`belay badges rotate-key`)
    /// showing within a second, and one made through this store at once.
    public func revision() -> String {
        let now = SystemTimeSource.monotonicNanoseconds()
        if let recent = lastRevision.recent(at: now) { return recent }
        let stamps = FileStamps(directory: FileStamp(path: directoryPath), current: FileStamp(path: currentPath))
        return lastRevision.text(for: stamps, at: now)
    }

    /// The key with this thumbprint, or nil when there is none.
    public func key(withThumbprint thumbprint: String) -> Ed25519Key? {
        guard thumbprint.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (48...57).contains($0)
                                          || (65...90).contains($0) || (97...122).contains($0) }) else { return nil }
        return try? key(thumbprint: thumbprint)
    }

    /// The club's secret for members' badge identities: 32 random bytes, made on first use.
    /// Whoever does not hold it cannot tell which member a badge names, even knowing the salt.
    /// When two processes make it at once, one file wins and both use it.
    /// - Throws: `PipelineError` when the directory refuses the file or the file is damaged.
    public func memberSecret() throws -> [UInt8] {
        try memberSecret(making: makesKeys)
    }

    private func memberSecret(making: Bool) throws -> [UInt8] {
        let file = directory.appendingPathComponent(Self.memberSecretName)
        if FileManager.default.fileExists(atPath: file.path) { return try readMemberSecret(file) }
        guard making else {
            throw PipelineError.invalidSetting("rewards.badge_keys_directory", "\(directory.path) holds no member-secret; copy the whole directory from the node that made its keys")
        }
        try prepareDirectory()
        let temporary = AtomicFile.temporaryPath(for: file.path)
        do {
            try AtomicFile.write(Array((Crypto.base64URL(Crypto.randomBytes(32)) + "\n").utf8), to: temporary, permissions: 0o600)
        } catch {
            throw PipelineError.invalidSetting("badge member secret", "cannot write \(temporary) (\(error.reason)); check that the data directory is writable")
        }
        // link(2) never replaces: the first secret made stays, whoever made it.
        let linked = link(temporary, file.path) == 0 ? 0 : errno
        unlink(temporary)
        guard linked == 0 || linked == EEXIST else {
            throw PipelineError.invalidSetting("badge member secret", "cannot create \(file.path) (\(String(cString: strerror(linked)))); check that the data directory is writable")
        }
        return try readMemberSecret(file)
    }

    static let memberSecretName = "member-secret"

    private func readMemberSecret(_ file: URL) throws -> [UInt8] {
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let secret = Crypto.decodeBase64URL(text.trimmingCharacters(in: .whitespacesAndNewlines)), secret.count == 32 else {
            throw PipelineError.invalidSetting("badge member secret", "cannot read \(file.path); restore it from a backup of the data directory (a new secret would give members new badge identities)")
        }
        return secret
    }

    private func key(thumbprint: String) throws -> Ed25519Key {
        let file = directory.appendingPathComponent("\(thumbprint).key")
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let seed = Crypto.decodeBase64URL(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PipelineError.invalidSetting("badge key", "cannot read \(file.path); restore it from a backup, or run `belay badges rotate-key` to start a new key")
        }
        let key = try Ed25519Key(seed: seed)
        guard key.thumbprint == thumbprint else {
            throw PipelineError.invalidSetting("badge key", "\(file.path) holds a different key than its name says; restore it from a backup")
        }
        return key
    }

    private func prepareDirectory() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw PipelineError.invalidSetting("badge key", "cannot create \(directory.path): \(error.localizedDescription)")
        }
    }

    private func write(_ text: String, to name: String) throws {
        let target = directory.appendingPathComponent(name)
        do {
            try AtomicFile.write(Array(text.utf8), to: target.path, permissions: 0o600)
        } catch {
            throw PipelineError.invalidSetting("badge key", "cannot write \(target.path) (\(error.reason)); check that the data directory is writable")
        }
        lastRevision.forget()
    }
}

/// What `stat` says of a file that changes when it is replaced or written; all zero, and
/// `exists` false, when it cannot be read.
private struct FileStamp: Equatable {
    let exists: Bool
    let device: UInt64, inode: UInt64, size: Int64
    let modifiedSeconds: Int, modifiedNanoseconds: Int, changedSeconds: Int, changedNanoseconds: Int

    init(path: String) {
        var info = stat()
        exists = stat(path, &info) == 0
        if !exists { info = stat() }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        changedSeconds = info.st_ctim.tv_sec
        changedNanoseconds = info.st_ctim.tv_nsec
    }

    var text: String {
        guard exists else { return "-" }
        return "\(device):\(inode):\(size):\(modifiedSeconds).\(modifiedNanoseconds):\(changedSeconds).\(changedNanoseconds)"
    }
}

private struct FileStamps: Equatable {
    let directory: FileStamp
    let current: FileStamp
}

/// The revision text of the stamps seen last and when they were looked at, so that within a
/// second the files are not looked at again, and unchanged keys cost a comparison rather than
/// a string built anew.
private final class RevisionMemo: Sendable {
    /// How long a look at the files answers for, in nanoseconds.
    static let lookInterval: UInt64 = 1_000_000_000

    private let last = Mutex<(stamps: FileStamps, text: String, lookedAt: UInt64)?>(nil)

    /// The text of the last look when it was made less than `lookInterval` before `now`.
    func recent(at now: UInt64) -> String? {
        last.withLock { known in
            guard let known, now &- known.lookedAt < Self.lookInterval else { return nil }
            return known.text
        }
    }

    func text(for stamps: FileStamps, at now: UInt64) -> String {
        last.withLock { known in
            let text = known.flatMap { $0.stamps == stamps ? $0.text : nil } ?? stamps.directory.text + "|" + stamps.current.text
            known = (stamps, text, now)
            return text
        }
    }

    /// Makes the next `revision()` look at the files (this process has just written one).
    func forget() {
        last.withLock { $0 = nil }
    }
}
