/// Characters named by their Unicode code points, for messages about text that could not be
/// drawn: `U+13000`, or `'𓀀' (U+13000)`.
public enum CodePoints {
    /// One name per scalar of `character`: `["U+1F9D7", "U+200D", …]` (uppercase hex, unpadded).
    public static func names(of character: Character) -> [String] {
        character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// `'𓀀' (U+13000), 'é' (U+E9)`: each character quoted, with its code points.
    public static func describe(_ characters: [Character]) -> String {
        characters.map { "'\($0)' (" + names(of: $0).joined(separator: " ") + ")" }.joined(separator: ", ")
    }
}
