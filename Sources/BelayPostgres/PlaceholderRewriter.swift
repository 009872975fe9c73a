import Synchronization

/// Rewrites the repositories' SQLite-style placeholders (`?`, and `?N` for a numbered one)
/// into PostgreSQL's `$N`, leaving quoted text, quoted names and comments alone. A `?`
/// after `?N` is numbered N+1, as SQLite numbers it. Statements are few and reused, so each
/// text is rewritten once.
final class PlaceholderRewriter: Sendable {
    static let shared = PlaceholderRewriter()

    /// A statement in PostgreSQL's placeholders, with the parameter numbers it uses (SQLite
    /// accepts arguments for numbers a statement skips; the server needs a type for them).
    struct Rewritten: Sendable {
        let sql: String
        let usedParameters: Set<Int>
    }

    private let cache = Mutex<[String: Rewritten]>([:])

    func rewrite(_ sql: String) -> Rewritten {
        if let known = cache.withLock({ $0[sql] }) { return known }
        let rewritten = Self.rewriteUncachedWithParameters(sql)
        cache.withLock { $0[sql] = rewritten }
        return rewritten
    }

    static func rewriteUncached(_ sql: String) -> String {
        rewriteUncachedWithParameters(sql).sql
    }

    static func rewriteUncachedWithParameters(_ sql: String) -> Rewritten {
        let (text, used) = placeholdersReplaced(in: sql) { "$\($0)" }
        return Rewritten(sql: text, usedParameters: used)
    }

    /// `sql` with its placeholders numbered explicitly and moved up by `offset` (`?` and `?2`
    /// become `?4` and `?5` for an offset of 3), so that it can share one statement with another
    /// statement's first `offset` arguments.
    static func renumbered(_ sql: String, after offset: Int) -> String {
        placeholdersReplaced(in: sql) { "?\($0 + offset)" }.sql
    }

    /// `sql` with each placeholder replaced by `replacement(number)`, and the numbers used.
    private static func placeholdersReplaced(in sql: String, by replacement: (Int) -> String) -> (sql: String, used: Set<Int>) {
        let characters = Array(sql.unicodeScalars)
        var output = String.UnicodeScalarView()
        var highest = 0
        var used = Set<Int>()
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
                used.insert(number)
                output.append(contentsOf: replacement(number).unicodeScalars)
            default:
                output.append(character)
                index += 1
            }
        }
        return (String(output), used)
    }
}
