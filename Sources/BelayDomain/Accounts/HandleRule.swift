import Foundation

/// What a handle a member chooses may be, and how one is made from a name at sign-up.
///
/// Handles are compared after NFKC and case folding: the text is NFKC-normalised when it
/// comes in (so `Ａdmin` arrives as `Admin`) and both engines' unique indexes ignore case.
public enum HandleRule {
    static let lengths = 3...30
    /// What `isWellFormed` and `lengths` accept, as a regular expression for the API document
    /// (which states the ASCII form; NFKC-equivalent forms such as full-width letters are taken too).
    public static let pattern = "^[A-Za-z0-9][A-Za-z0-9_.-]{\(lengths.lowerBound - 1),\(lengths.upperBound - 1)}$"
    /// Words no member may take (compared case-insensitively), and the tombstone prefix.
    public static let reserved: Set<String> = [
        "admin", "administrator", "root", "belay", "club", "support", "help", "api", "system", "staff", "official",
        "moderator", "security", "host", "me", "null", "undefined", "www", "mail", "deleted", "anonymous", "everyone",
    ]

    /// `text` as stored: trimmed and NFKC-normalised.
    static func normalised(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).precomposedStringWithCompatibilityMapping
    }

    /// Checks a handle a member chose. `current` is the member's handle now: keeping it is no
    /// choice, so a reserved one an admin was given (`admin`) may be sent back unchanged.
    /// - Throws: `DomainError` `invalid_input` (field `handle`) saying what a handle may be.
    static func checkChosen(_ handle: String, current: String? = nil) throws {
        let folded = handle.lowercased()
        guard lengths.contains(handle.count), isWellFormed(handle) else {
            throw DomainError.invalid("handle", "A handle is 3–30 letters a–z, digits, '_', '.' or '-', starting with a letter or digit (got \(handle.debugDescription))")
        }
        guard folded != current?.lowercased() else { return }
        // `deleted-N` marks a deleted account, `hidden-N` a handle the moderators hid.
        guard !reserved.contains(folded), !folded.hasPrefix("deleted-"), !folded.hasPrefix("hidden-") else {
            throw DomainError.invalid("handle", "The handle \(handle) is reserved; choose another")
        }
    }

    static func isWellFormed(_ handle: String) -> Bool {
        let scalars = handle.unicodeScalars
        guard let first = scalars.first, first.isASCII, CharacterSet.alphanumerics.contains(first) else { return false }
        return scalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0)) }
    }

    /// A handle made from a name or an email's local part: Latin letters where the name has
    /// them (accents dropped, other scripts transliterated), dots between words, `climber`
    /// when nothing usable is left. The caller adds digits until it is free.
    static func base(from name: String) -> String {
        let latin = name.applyingTransform(StringTransform("Any-Latin; Latin-ASCII; Lower"), reverse: false) ?? name.lowercased()
        var handle = ""
        var pendingDot = false
        for scalar in latin.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingDot, !handle.isEmpty { handle.append(".") }
                pendingDot = false
                handle.unicodeScalars.append(scalar)
            } else {
                pendingDot = true
            }
            if handle.count >= 24 { break }
        }
        if handle.count < lengths.lowerBound || reserved.contains(handle) || handle.hasPrefix("deleted") { return "climber" }
        return handle
    }
}
