import Foundation

/// The one rule for text Belay stores: what may be in it and how long it may be.
///
/// Lengths count Unicode code points, the unit the schema's `length()` CHECKs count, so the
/// domain is always the first to refuse and a CHECK is only a backstop. (Counting grapheme
/// clusters instead would let an `e` followed by 200 combining accents pass as one
/// character and then fail the CHECK.)
///
/// Control characters are refused: NUL always, the other C0 controls and DEL except a tab
/// or line break in fields that allow them (descriptions, addresses), and the C1 controls.
/// They are invisible, break logs and terminals, and NUL truncates text in C libraries.
struct TextRule: Sendable {
    /// The API name of the field, e.g. `title`; errors name it.
    let field: String
    /// The field in words for messages, e.g. "A title".
    let noun: String
    /// Allowed lengths in code points.
    let lengths: ClosedRange<Int>
    /// Whether tab, line feed and carriage return may appear.
    let allowsLineBreaks: Bool

    init(field: String, noun: String, lengths: ClosedRange<Int>, allowsLineBreaks: Bool = false) {
        self.field = field
        self.noun = noun
        self.lengths = lengths
        self.allowsLineBreaks = allowsLineBreaks
    }

    /// Checks `text` against the rule.
    /// - Throws: `DomainError` `invalid_input` naming the field: a control character (with
    ///   its code point and position) or a length outside `lengths`.
    func check(_ text: String) throws {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if Self.isRefusedControl(scalar, allowsLineBreaks: allowsLineBreaks) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
                throw DomainError.invalid(field, "\(noun) may not contain control characters (found U+\(padded) at character \(count)); remove it and send the text again")
            }
        }
        guard lengths.contains(count) else {
            let bounds = lengths.lowerBound == 0
                ? "at most \(Self.grouped(lengths.upperBound)) characters"
                : "\(Self.grouped(lengths.lowerBound))–\(Self.grouped(lengths.upperBound)) characters"
            throw DomainError.invalid(field, "\(noun) is \(bounds) (got \(Self.grouped(count)))")
        }
    }

    /// Checks an optional value; nil passes.
    func check(_ text: String?) throws {
        if let text { try check(text) }
    }

    static func isRefusedControl(_ scalar: Unicode.Scalar, allowsLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return !allowsLineBreaks
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true
        default: return false
        }
    }

    private static func grouped(_ number: Int) -> String {
        number >= 1_000 ? "\(number / 1_000),\(String(number % 1_000 + 1_000).dropFirst())" : String(number)
    }
}
