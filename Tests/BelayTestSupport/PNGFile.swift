import Foundation

/// Checks on PNG files written by Belay, without decoding them.
public enum PNGFile {
    /// The width and height from the IHDR chunk, when `path` holds a whole PNG: the signature,
    /// an IHDR first and an IEND chunk at the very end (a truncated file has none).
    public static func dimensions(atPath path: String) -> (width: Int, height: Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 45 else { return nil }
        let bytes = [UInt8](data)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8),
              Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8) else { return nil }
        func integer(at offset: Int) -> Int {
            bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        return (integer(at: 16), integer(at: 20))
    }
}
