/// Escapes text for HTML element content and double-quoted attribute values: `&`, `<`, `>`,
/// `"` and `'` become character references, so any value (a place name
/// `<script>alert(1)</script>`) shows as text.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
