import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel's page cache holds of a file, for tests of what a writer leaves cached.
public enum PageCache {
    /// How many of the file's pages are in the page cache now (`mincore` on a mapping that
    /// touches nothing), or nil when the file cannot be opened or mapped.
    public static func residentPages(ofFileAt path: String) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return nil }
        let length = Int(info.st_size)
        guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else { return nil }
        defer { munmap(mapping, length) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
        guard mincore(mapping, length, &vector) == 0 else { return nil }
        return vector.reduce(0) { $0 + Int($1 & 1) }
    }

    /// True when the file system under `path` keeps file data only in memory (tmpfs, ramfs),
    /// where nothing can be given back: the mount in `/proc/self/mountinfo` that holds it.
    public static func isMemoryBacked(_ path: String) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (mountPoint: String, type: String)?
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 5, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            let mountPoint = String(fields[4])
            let within = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
            if within, mountPoint.count >= (best?.mountPoint.count ?? 0) { best = (mountPoint, String(fields[dash + 1])) }
        }
        return ["tmpfs", "ramfs"].contains(best?.type ?? "")
    }
}
