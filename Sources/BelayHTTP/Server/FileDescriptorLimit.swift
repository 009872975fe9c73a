#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit, as it bounds how many connections can be served: past it
/// `accept` fails, and so does everything else that opens a file (the database, images).
enum FileDescriptorLimit {
    /// Descriptors kept for everything but connections: the database and its journal, images
    /// being sent, logs, render workers.
    static let reserve = 256

    /// How many of `wanted` connections fit under the open-file limit, after raising its soft
    /// value towards `wanted + reserve` as far as the hard value allows. 0 (libmicrohttpd's
    /// default) is returned unchanged.
    static func connections(fitting wanted: Int) -> Int {
        guard wanted > 0 else { return 0 }
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        let needed = rlim_t(wanted + reserve)
        if limit.rlim_cur != unlimited, limit.rlim_cur < needed {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == unlimited ? needed : min(needed, limit.rlim_max)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        if limit.rlim_cur == unlimited { return wanted }
        let available = Int(clamping: limit.rlim_cur) - reserve
        return min(wanted, max(16, available))
    }

    /// `RLIM_INFINITY`, which Swift does not import (it is `-1` cast to an unsigned type).
    private static let unlimited = rlim_t.max

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
