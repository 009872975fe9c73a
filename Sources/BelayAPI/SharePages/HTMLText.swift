/// Escapes text for HTML element content and double-quoted attribute values: `&`, `<`, `>`,
/// `"` and `'` become character references, so any value (a place name
/// `<script>alert(1)</script>`) shows as text.
enum HTMLText {
    /// `text` with `& < > " '` written as references, for an element's text or an attribute
    /// value. Works on the UTF-8 bytes (the five are ASCII, so no other character's bytes can
    /// be mistaken for them); text with none of them, the usual case, is returned as it is.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: needsReference) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: result += [0x26, 0x61, 0x6D, 0x70, 0x3B]        // &amp;
            case 0x3C: result += [0x26, 0x6C, 0x74, 0x3B]              // &lt;
            case 0x3E: result += [0x26, 0x67, 0x74, 0x3B]              // &gt;
            case 0x22: result += [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B]  // &quot;
            case 0x27: result += [0x26, 0x23, 0x33, 0x39, 0x3B]        // &#39;
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func needsReference(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }
}
