import BelayArguments

/// A table of text for terminal output: columns padded to their widest cell, two spaces
/// apart, header in capitals. Korean and other wide characters count as two columns so
/// that rows stay aligned.
public struct Table: Sendable {
    public var columns: [String]
    public var rows: [[String]]

    public init(columns: [String], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    public mutating func append(_ row: [String]) { rows.append(row) }

    /// The lines of the table, trailing spaces removed.
    public var lines: [String] {
        let all = [columns.map { $0.uppercased() }] + rows
        var widths = Array(repeating: 0, count: columns.count)
        for row in all { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], Self.displayWidth(cell)) } }
        return all.map { row in
            var line = ""
            for (i, cell) in row.enumerated() where i < widths.count {
                let clean = cell.replacingOccurrences(of: "\n", with: " ")
                line += clean
                if i < widths.count - 1 { line += String(repeating: " ", count: widths[i] - Self.displayWidth(clean) + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Columns a string takes in a terminal: 2 for East Asian wide and emoji characters,
    /// 0 for combining marks, 1 otherwise.
    static func displayWidth(_ text: String) -> Int {
        var width = 0
        for character in text {
            guard let scalar = character.unicodeScalars.first else { continue }
            let value = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { continue }
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value)
                || (0x20000...0x3FFFD).contains(value)
            width += wide ? 2 : 1
        }
        return width
    }
}

extension CommandContext {
    /// Prints `table` to standard output; when it has no rows, prints only the header and
    /// `emptyMessage` to standard error.
    public func printTable(_ table: Table, emptyMessage: String? = nil) {
        for line in table.lines { print(line) }
        if table.rows.isEmpty, let emptyMessage { note(emptyMessage) }
    }
}
