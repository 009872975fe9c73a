import Foundation

/// Reads CSV (RFC 4180): fields separated by commas, records by CRLF or LF, fields in double
/// quotes may hold commas, quotes (doubled) and line breaks. A UTF-8 byte order mark at the
/// start is skipped (spreadsheets write one).
public enum CSVReader {
    /// One record and the line it starts on (from 1).
    public struct Record: Sendable {
        public let line: Int
        public let fields: [String]

        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    /// Every record, blank lines left out.
    /// - Throws: `CSVSyntaxError` for a quote that is never closed or text after a closing
    ///   quote, naming the line.
    public static func records(_ text: String) throws -> [Record] {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1, recordLine = 1
        var index = 0
        var quoted = false, wasQuoted = false
        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            wasQuoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if quoted {
                if scalar == "\"" {
                    if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                        wasQuoted = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
            } else {
                switch scalar {
                case ",": endField()
                case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n":
                    break
                case "\n", "\r":
                    endRecord()
                    line += 1
                    recordLine = line
                case "\"" where field.isEmpty && !wasQuoted:
                    quoted = true
                default:
                    if wasQuoted {
                        throw CSVSyntaxError(line: line, message: "Line \(line) of the CSV has text after a closing quote; a quoted field ends at its quote (write \"\" for a quote inside it).")
                    }
                    field.append(scalar)
                }
            }
            index += 1
        }
        if quoted { throw CSVSyntaxError(line: recordLine, message: "Line \(recordLine) of the CSV opens a quote that is never closed.") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}

/// CSV that cannot be read as records: the line it happened on and what to fix.
public struct CSVSyntaxError: Error, CustomStringConvertible, Sendable {
    public let line: Int
    public let message: String

    public var description: String { message }
}
