import CDeflate

/// gzip (RFC 1952) of a whole buffer in memory, by libdeflate: how database backups are
/// compressed on their way into the bucket.
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `bytes` compressed at libdeflate's level 6.
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(6) else { throw Failure(description: "libdeflate could not allocate a compressor") }
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let written = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard written > 0 else { throw Failure(description: "libdeflate could not compress \(bytes.count) bytes") }
        return Array(out.prefix(written))
    }

    /// The bytes of a gzip member; its size comes from the member's trailer (so at most 4 GiB).
    static func decompress(_ bytes: [UInt8]) throws -> [UInt8] {
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B else { throw Failure(description: "this is not gzip data") }
        let size = bytes.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        guard let decompressor = libdeflate_alloc_decompressor() else { throw Failure(description: "libdeflate could not allocate a decompressor") }
        defer { libdeflate_free_decompressor(decompressor) }
        var out = [UInt8](repeating: 0, count: max(size, 1))
        var actual = 0
        let result = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_gzip_decompress(decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &actual)
            }
        }
        guard result == LIBDEFLATE_SUCCESS else { throw Failure(description: "the gzip data is damaged (libdeflate result \(result.rawValue))") }
        return Array(out.prefix(actual))
    }
}
