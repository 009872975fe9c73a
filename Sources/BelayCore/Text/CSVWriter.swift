/// Writes CSV (RFC 4180) for spreadsheets: a field is quoted when it holds a comma, a quote or
/// a line break, and one a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return) is prefixed with `'`, so text a member typed cannot become
/// a formula. Rows end in CRLF.
public enum CSVWriter {
    /// One field, quoted and neutralised as needed.
    public static func field(_ value: String) -> String {
        var text = value
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The whole file: `header` then `rows`, each field written with `field`.
    public static func text(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }
}
