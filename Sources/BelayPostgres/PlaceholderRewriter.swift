import Synchronization

/// Rewrites the repositories' SQLite-style placeholders (`?`, and `?N` for a numbered one)
/// into PostgreSQL's `$N`, leaving quoted text, quoted names and comments alone. A `?`
/// after `?N` is numbered N+1, as SQLite numbers it. Statements are few and reused, so each
/// text is rewritten once.
final class PlaceholderRewriter: Sendable {
    static let shared = PlaceholderRewriter()

    private let cache = Mutex<[String: String]>([:])

    func rewrite(_ sql: String) -> String {
        if let known = cache.withLock({ $0[sql] }) { return known }
        let rewritten = Self.rewriteUncached(sql)
        cache.withLock { $0[sql] = rewritten }
        return rewritten
    }

    static func rewriteUncached(_ sql: String) -> String {
        let characters = Array(sql.unicodeScalars)
        var output = String.UnicodeScalarView()
        var highest = 0
        var index = 0
        func copy(until terminator: Unicode.Scalar) {
            while index < characters.count {
                output.append(characters[index])
                index += 1
                if characters[index - 1] == terminator { return }
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'", "\"":
                output.append(character)
                index += 1
                copy(until: character)
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                copy(until: "\n")
            case "?":
                index += 1
                var digits = 0
                var number = 0
                while index < characters.count, let digit = characters[index].properties.numericType != nil ? Int(String(characters[index])) : nil {
                    number = number * 10 + digit
                    digits += 1
                    index += 1
                }
                if digits == 0 { number = highest + 1 }
                highest = max(highest, number)
                output.append(contentsOf: "$\(number)".unicodeScalars)
            default:
                output.append(character)
                index += 1
            }
        }
        return String(output)
    }
}
