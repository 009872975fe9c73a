/// Screens the text members write (meetup titles and descriptions, display names, handles)
/// against the club's list of words it does not allow. BelayText's `BlockedTerms` is the one
/// Belay uses; the domain knows only this.
public protocol ContentScreen: Sendable {
    /// Whether `text` holds one of the club's blocked terms, however it is spelled.
    func refuses(_ text: String) -> Bool
}

extension ContentScreen {
    /// - Throws: `DomainError` `content_refused` naming `field` when `text` holds a blocked term.
    func check(_ text: String?, field: String, noun: String) throws {
        guard let text, !text.isEmpty, refuses(text) else { return }
        throw DomainError(.contentRefused, "\(noun) holds a word this club does not allow; change the \(field.replacingOccurrences(of: "_", with: " ")) and send it again",
                          field: field)
    }
}
