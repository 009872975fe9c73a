import BelayCore
import BelayDomain
import Foundation

/// The club's list of words it does not allow (`moderation.blocked_terms_file`), matched the
/// way a person reads text rather than byte for byte.
///
/// Both the terms and the text are brought to one form before matching: compatibility
/// composed (NFKC: full-width `ｆｕｃｋ` is `fuck`), case folded, mapped to Unicode's confusable
/// skeletons (a Cyrillic `о` reads as a Latin `o`), and with everything but letters, marks
/// and digits left out (so `f u c k`, `f.u.c.k` and zero-width characters between the letters
/// do not pass). A term is found when its form is inside the text's form. Leaving spaces out
/// means a term can also be found across two words; choose terms long enough not to sit inside
/// ordinary ones.
///
/// The file is UTF-8 text: one term per line, in any of the club's languages; blank lines and
/// lines starting with `#` are skipped.
public struct BlockedTerms: ContentScreen {
    private let skeleton: ConfusableSkeleton
    /// The terms in matching form, without duplicates.
    public let forms: [String]

    /// The terms of `text` (the file's contents).
    /// - Throws: `ConfusableSkeleton.Unavailable` when ICU cannot match confusables.
    public init(text: String) throws {
        let skeleton = try ConfusableSkeleton()
        self.skeleton = skeleton
        var seen: Set<String> = []
        forms = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let term = line.trimmingCharacters(in: .whitespaces)
            guard !term.isEmpty, !term.hasPrefix("#") else { return nil }
            let form = Self.form(of: term, skeleton: skeleton)
            return form.isEmpty || !seen.insert(form).inserted ? nil : form
        }
    }

    /// The terms of the file at `path`.
    /// - Throws: `CocoaError` when it cannot be read as UTF-8; `ConfusableSkeleton.Unavailable`.
    public init(contentsOfFile path: String) throws {
        try self.init(text: try String(contentsOfFile: path, encoding: .utf8))
    }

    public func refuses(_ text: String) -> Bool {
        guard !forms.isEmpty else { return false }
        let form = Self.form(of: text, skeleton: skeleton)
        return forms.contains { form.contains($0) }
    }

    /// `text` in matching form: NFKC, case folded, confusable skeleton, letters, marks and digits only.
    static func form(of text: String, skeleton: ConfusableSkeleton) -> String {
        let folded = text.precomposedStringWithCompatibilityMapping.lowercased()
        let mapped = skeleton.skeleton(of: folded).precomposedStringWithCompatibilityMapping.lowercased()
        var kept = String.UnicodeScalarView()
        for scalar in mapped.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                kept.append(scalar)
            default:
                continue
            }
        }
        return String(kept)
    }
}
