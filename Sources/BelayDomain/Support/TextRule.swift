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
public struct TextRule: Sendable {
    /// The API name of the field, e.g. `title`; errors name it.
    public let field: String
    /// The field in words for messages, e.g. "A title".
    let noun: String
    /// Allowed lengths in code points.
    public let lengths: ClosedRange<Int>
    /// Whether tab, line feed and carriage return may appear.
    public let allowsLineBreaks: Bool

    init(field: String, noun: String, lengths: ClosedRange<Int>, allowsLineBreaks: Bool = false) {
        self.field = field
        self.noun = noun
        self.lengths = lengths
        self.allowsLineBreaks = allowsLineBreaks
    }

    // The rules of the fields the API takes, named once for the domain that enforces them and
    // for the API document that states them.
    public static let meetupTitle = TextRule(field: "title", noun: "A title", lengths: 1...200)
    public static let meetupPlaceName = TextRule(field: "place_name", noun: "A place name", lengths: 1...200)
    public static let meetupDescription = TextRule(field: "description", noun: "A description", lengths: 0...5_000, allowsLineBreaks: true)
    public static let meetupAddress = TextRule(field: "address", noun: "An address", lengths: 0...500, allowsLineBreaks: true)
    public static let webhookDescription = TextRule(field: "description", noun: "A webhook description", lengths: 0...200)
    public static let displayName = TextRule(field: "display_name", noun: "A display name", lengths: 1...100)
    public static let tokenLabel = TextRule(field: "label", noun: "A token label", lengths: 0...100)
    public static let signInName = TextRule(field: "name", noun: "A name", lengths: 1...100)
    public static let deviceName = TextRule(field: "device_name", noun: "A device name", lengths: 0...100)
    public static let shareClientEventID = TextRule(field: "client_event_id", noun: "A client event id", lengths: 1...200)
    public static let shareActivityType = TextRule(field: "activity_type", noun: "An activity type", lengths: 0...500)
    public static let shareTarget = TextRule(field: "target", noun: "A target", lengths: 0...100)
    public static let shareError = TextRule(field: "error", noun: "An error text", lengths: 0...2_000, allowsLineBreaks: true)

    public static let gymName = TextRule(field: "name", noun: "A gym name", lengths: 1...100)
    public static let gymAddress = TextRule(field: "address", noun: "An address", lengths: 0...500, allowsLineBreaks: true)
    public static let gymWebsite = TextRule(field: "website", noun: "A website", lengths: 0...500)
    public static let levelName = TextRule(field: "levels.name", noun: "A level name", lengths: 1...40)
    public static let problemWall = TextRule(field: "wall", noun: "A wall", lengths: 1...60)
    public static let problemHoldColour = TextRule(field: "hold_colour", noun: "A hold colour", lengths: 1...30)
    public static let problemName = TextRule(field: "name", noun: "A problem name", lengths: 0...100)
    public static let problemSetter = TextRule(field: "setter", noun: "A setter", lengths: 0...100)
    public static let clientTickID = TextRule(field: "client_tick_id", noun: "A client tick id", lengths: 1...64)
    public static let tickNote = TextRule(field: "note", noun: "A note", lengths: 0...2_000, allowsLineBreaks: true)
    public static let tickRouteName = TextRule(field: "route_name", noun: "A route name", lengths: 0...200)
    public static let tickCrag = TextRule(field: "crag", noun: "A crag", lengths: 0...200)

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

    /// The characters `isRefusedControl` refuses, as the inside of a regular-expression
    /// character class (`\uXXXX` ranges, as JSON Schema's ECMA-262 patterns write them).
    public var refusedCharacterClass: String {
        allowsLineBreaks ? #"\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F"# : #"\u0000-\u001F\u007F-\u009F"#
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
