import CDeflate

/// International text (`iTXt`) chunks in PNG files: written uncompressed, right after the
/// header, and read back by keyword. Badges are baked this way (Open Badges 3.0: keyword
/// `openbadgecredential`, the credential as its text).
public enum PNGTextChunk {
    /// `png` with an uncompressed `iTXt` chunk holding `text` under `keyword`, placed after `IHDR`.
    /// - Throws: `RenderError` when `png` does not start with a PNG signature and header, or the
    ///   keyword is not 1–79 Latin-1 printable characters.
    public static func inserting(keyword: String, text: String, into png: [UInt8]) throws -> [UInt8] {
        guard (1...79).contains(keyword.utf8.count), keyword.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw RenderError(.encodingFailed(format: "PNG", detail: "iTXt keyword \(keyword.debugDescription) is not 1–79 printable characters"))
        }
        guard let headerEnd = headerEnd(of: png) else {
            throw RenderError(.encodingFailed(format: "PNG", detail: "not a PNG with a header chunk"))
        }
        // keyword, NUL, compression flag 0, method 0, empty language tag + NUL, empty translated keyword + NUL, text.
        var data = Array(keyword.utf8) + [0, 0, 0, 0, 0]
        data += Array(text.utf8)
        var chunk = bigEndian(UInt32(data.count))
        let typeAndData = Array("iTXt".utf8) + data
        chunk += typeAndData
        let crc = typeAndData.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
        chunk += bigEndian(crc)
        return Array(png[..<headerEnd]) + chunk + Array(png[headerEnd...])
    }

    /// The text of the first uncompressed `iTXt` chunk with `keyword`, or nil when there is none.
    public static func text(keyword: String, in png: [UInt8]) -> String? {
        guard png.count > 8, png[0..<8].elementsEqual(signature) else { return nil }
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= png.count else { return nil }
            if type == "iTXt" {
                let data = png[start..<(start + length)]
                if let nul = data.firstIndex(of: 0), String(decoding: data[data.startIndex..<nul], as: UTF8.self) == keyword,
                   nul + 2 < data.endIndex, data[nul + 1] == 0 {
                    // Skip the flags, then the language tag and the translated keyword (each NUL-terminated).
                    var cursor = nul + 3
                    for _ in 0..<2 {
                        guard let end = data[cursor...].firstIndex(of: 0) else { return nil }
                        cursor = end + 1
                    }
                    return String(decoding: data[cursor...], as: UTF8.self)
                }
            }
            if type == "IEND" { return nil }
            offset = start + length + 4
        }
        return nil
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The offset just past the `IHDR` chunk (always the first, 13 bytes long).
    private static func headerEnd(of png: [UInt8]) -> Int? {
        guard png.count >= 33, png[0..<8].elementsEqual(signature), png[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        return 33
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
