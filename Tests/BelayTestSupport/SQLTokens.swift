import Foundation

/// A migration script as tokens, split into statements, and a cursor to read one: just enough
/// SQL for `PostgreSQLMigrationReader` (comments, quoted strings and identifiers,
/// dollar-quoted function bodies, words, numbers and symbols).
public enum SQLTokens {
    /// One token of a statement.
    public struct Token: Equatable, Sendable {
        /// What kind of token it is.
        public enum Kind: Sendable { case word, quotedName, string, number, symbol }

        public let kind: Kind
        /// The word, name or symbol as written; a string's contents.
        public let text: String
    }

    /// The statements of a script (split at `;` outside strings and bodies), each a list of
    /// tokens; empty statements are left out.
    /// - Throws: `SchemaShapeError` for an unterminated string, name, comment or body.
    public static func statements(of script: String) throws -> [[Token]] {
        let characters = Array(script.unicodeScalars)
        var statements: [[Token]] = [], current: [Token] = []
        var index = 0
        func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(characters[range])) }
        while index < characters.count {
            let scalar = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "-" && next == "-" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
            } else if scalar == "/" && next == "*" {
                guard let end = find(["*", "/"], in: characters, from: index + 2) else { throw SchemaShapeError("an unterminated /* comment") }
                index = end + 2
            } else if scalar == "'" || scalar == "\"" {
                var end = index + 1, contents = ""
                while true {
                    guard end < characters.count else { throw SchemaShapeError("an unterminated \(scalar) quote") }
                    if characters[end] == scalar {
                        if end + 1 < characters.count && characters[end + 1] == scalar { contents.unicodeScalars.append(scalar); end += 2; continue }
                        break
                    }
                    contents.unicodeScalars.append(characters[end])
                    end += 1
                }
                current.append(Token(kind: scalar == "'" ? .string : .quotedName, text: contents))
                index = end + 1
            } else if scalar == "$", let close = characters[(index + 1)...].firstIndex(of: "$"),
                      characters[(index + 1)..<close].allSatisfy({ $0 == "_" || $0.properties.isAlphabetic }) {
                // A dollar-quoted body: $$ … $$ or $tag$ … $tag$.
                let tag = Array(characters[index...close])
                guard let end = find(tag, in: characters, from: close + 1) else { throw SchemaShapeError("an unterminated \(text(index..<(close + 1))) body") }
                current.append(Token(kind: .string, text: text((close + 1)..<end)))
                index = end + tag.count
            } else if isWordCharacter(scalar) {
                var end = index
                while end < characters.count && isWordCharacter(characters[end]) { end += 1 }
                current.append(Token(kind: ("0"..."9").contains(scalar) ? .number : .word, text: text(index..<end)))
                index = end
            } else if scalar == ";" {
                if !current.isEmpty { statements.append(current) }
                current = []
                index += 1
            } else {
                current.append(Token(kind: .symbol, text: String(scalar)))
                index += 1
            }
        }
        if !current.isEmpty { statements.append(current) }
        return statements
    }

    private static func find(_ needle: [Unicode.Scalar], in characters: [Unicode.Scalar], from start: Int) -> Int? {
        guard !needle.isEmpty, characters.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= characters.count {
            if Array(characters[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }

    /// Reads the tokens of one statement (or of one part of it) front to back.
    public struct Cursor {
        private let tokens: [Token]
        private var position = 0

        public init(_ tokens: [Token]) {
            self.tokens = tokens
        }

        /// True when every token has been read.
        public var isAtEnd: Bool { position >= tokens.count }

        /// The next token when it is a word.
        public var peekWord: String? {
            guard !isAtEnd, tokens[position].kind == .word else { return nil }
            return tokens[position].text
        }

        /// The next token when it is a symbol.
        public var peekSymbol: String? {
            guard !isAtEnd, tokens[position].kind == .symbol else { return nil }
            return tokens[position].text
        }

        /// The whole of this part when it is one name (a column in an index's list).
        public var simpleName: String? {
            guard tokens.count == 1, tokens[0].kind == .word || tokens[0].kind == .quotedName else { return nil }
            return tokens[0].kind == .word ? tokens[0].text.lowercased() : tokens[0].text
        }

        /// Moves past the next token.
        public mutating func advance() {
            position += 1
        }

        /// Moves past `words` when the next tokens are those words (in any case); else reads nothing.
        public mutating func take(_ words: String...) -> Bool {
            guard position + words.count <= tokens.count else { return false }
            for (offset, word) in words.enumerated() {
                let token = tokens[position + offset]
                guard token.kind == .word, token.text.uppercased() == word else { return false }
            }
            position += words.count
            return true
        }

        /// Moves past the word `word`.
        /// - Throws: `SchemaShapeError` when the next token is something else.
        public mutating func expect(_ word: String) throws {
            guard take(word) else { throw SchemaShapeError("\(word) expected") }
        }

        /// Reads a name (a word, lowercased as PostgreSQL folds it, or a quoted name as written).
        /// - Throws: `SchemaShapeError` when the next token is no name.
        public mutating func name() throws -> String {
            guard !isAtEnd else { throw SchemaShapeError("a name expected at the end") }
            let token = tokens[position]
            switch token.kind {
            case .word: position += 1; return token.text.lowercased()
            case .quotedName: position += 1; return token.text
            default: throw SchemaShapeError("a name expected, not \(token.text)")
            }
        }

        /// Moves past a parenthesised group, nested groups and all.
        /// - Throws: `SchemaShapeError` when the next token is not `(` or the group is not closed.
        public mutating func skipGroup() throws {
            _ = try group()
        }

        /// Moves past one expression: a parenthesised group, or a token (a sign and a number,
        /// a function name and its arguments, a value and its `::type` casts).
        /// - Throws: `SchemaShapeError` at the end of the statement.
        public mutating func skipExpression() throws {
            guard !isAtEnd else { throw SchemaShapeError("an expression expected at the end") }
            if peekSymbol == "(" { try skipGroup() }
            else {
                if peekSymbol == "-" || peekSymbol == "+" { advance() }
                advance()
                if peekSymbol == "(" { try skipGroup() }
            }
            while peekSymbol == ":" && position + 1 < tokens.count && tokens[position + 1].text == ":" {
                position += 2
                _ = try name()
            }
        }

        /// Moves to the end of the statement.
        public mutating func skipToEnd() {
            position = tokens.count
        }

        /// Reads a parenthesised, comma-separated list, each item a cursor of its own.
        /// - Throws: `SchemaShapeError` when the next token is not `(` or the group is not closed.
        public mutating func parenthesisedList() throws -> [Cursor] {
            Self.splitByCommas(try group()).map(Cursor.init)
        }

        /// Reads a parenthesised list of column names.
        /// - Throws: `SchemaShapeError` for an item that is not a name.
        public mutating func parenthesisedNames() throws -> [String] {
            try parenthesisedList().map { item in
                guard let name = item.simpleName else { throw SchemaShapeError("a column name expected in a list") }
                return name
            }
        }

        /// The rest of the statement, split at the commas outside parentheses.
        public mutating func restSplitByCommas() -> [Cursor] {
            let rest = Array(tokens[min(position, tokens.count)...])
            position = tokens.count
            return Self.splitByCommas(rest).map(Cursor.init)
        }

        /// - Throws: `SchemaShapeError` when tokens are left unread.
        public func expectEnd() throws {
            guard isAtEnd else { throw SchemaShapeError("unexpected \(tokens[position].text)") }
        }

        /// The tokens inside the parenthesised group at the cursor, which it moves past.
        private mutating func group() throws -> [Token] {
            guard peekSymbol == "(" else { throw SchemaShapeError("( expected") }
            var depth = 0
            let start = position + 1
            while position < tokens.count {
                let token = tokens[position]
                position += 1
                if token.kind == .symbol && token.text == "(" { depth += 1 }
                if token.kind == .symbol && token.text == ")" {
                    depth -= 1
                    if depth == 0 { return Array(tokens[start..<(position - 1)]) }
                }
            }
            throw SchemaShapeError("an unclosed (")
        }

        private static func splitByCommas(_ tokens: [Token]) -> [[Token]] {
            var parts: [[Token]] = [[]]
            var depth = 0
            for token in tokens {
                if token.kind == .symbol && token.text == "(" { depth += 1 }
                if token.kind == .symbol && token.text == ")" { depth -= 1 }
                if token.kind == .symbol && token.text == "," && depth == 0 { parts.append([]) } else { parts[parts.count - 1].append(token) }
            }
            return parts.filter { !$0.isEmpty }
        }
    }
}
