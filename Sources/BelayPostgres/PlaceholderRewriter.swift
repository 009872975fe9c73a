import Synchronization

/// Rewrites the repositories' SQLite-style placeholders (`?`, and `?N` for a numbered one)
/// into PostgreSQL's `$N`, leaving quoted text, quoted names and comments alone. A `?`
/// after `?N` is numbered N+1, as SQLite numbers it. Statements are few and reused, so each
/// text is rewritten once, and each pair of a held change and the statement it travels in is
/// merged once.
final class PlaceholderRewriter: Sendable {
    static let shared = PlaceholderRewriter()

    /// A statement in PostgreSQL's placeholders, with the parameter numbers it uses (SQLite
    /// accepts arguments for numbers a statement skips; the server needs a type for them), and
    /// whether a change can travel inside it.
    struct Rewritten: Sendable {
        let sql: String
        let usedParameters: Set<Int>
        /// A plain `INSERT`, `UPDATE` or `DELETE`: it can be a data-modifying `WITH` of another.
        let isPlainChange: Bool
        /// A change (plain, or a `WITH` that is not `RECURSIVE`): another change can be its first
        /// data-modifying `WITH`.
        let canCarryChange: Bool
    }

    private struct MergeKey: Hashable {
        let change: String
        let changeArguments: Int
        let carrier: String
    }

    private let cache = Mutex<[String: Rewritten]>([:])
    private let merges = Mutex<[MergeKey: String]>([:])

    func rewrite(_ sql: String) -> Rewritten {
        if let known = cache.withLock({ $0[sql] }) { return known }
        let rewritten = Self.rewriteUncachedWithParameters(sql)
        cache.withLock { $0[sql] = rewritten }
        return rewritten
    }

    /// `carrier` with `change` as its first data-modifying `WITH` (`belay_change`), in `?N`
    /// placeholders numbered so that the change's `changeArguments` arguments come first;
    /// nil when `carrier` cannot carry a change (see `Rewritten.canCarryChange`).
    func merged(_ change: String, changeArguments: Int, into carrier: String) -> String? {
        guard rewrite(carrier).canCarryChange else { return nil }
        let key = MergeKey(change: change, changeArguments: changeArguments, carrier: carrier)
        if let known = merges.withLock({ $0[key] }) { return known }
        let start = carrier.drop { $0.isWhitespace }
        let with = "belay_change AS (\(Self.renumbered(change, after: 0)))"
        let rest = Self.renumbered(String(start), after: changeArguments)
        let combined = Self.leadingKeyword(start) == "WITH"
            ? "WITH \(with), " + rest.dropFirst(4).drop { $0.isWhitespace }
            : "WITH \(with) " + rest
        merges.withLock { $0[key] = combined }
        return combined
    }

    /// The first word of `sql`, in capitals.
    private static func leadingKeyword(_ sql: some StringProtocol) -> String {
        sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
    }

    static func rewriteUncached(_ sql: String) -> String {
        rewriteUncachedWithParameters(sql).sql
    }

    static func rewriteUncachedWithParameters(_ sql: String) -> Rewritten {
        let (text, used) = placeholdersReplaced(in: sql) { "$\($0)" }
        let start = sql.drop { $0.isWhitespace }
        let keyword = leadingKeyword(start)
        let isPlainChange = ["INSERT", "UPDATE", "DELETE"].contains(keyword)
        let isWith = keyword == "WITH" && leadingKeyword(start.dropFirst(4)) != "RECURSIVE"
        return Rewritten(sql: text, usedParameters: used, isPlainChange: isPlainChange, canCarryChange: isPlainChange || isWith)
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
