import BelayStorage
import Foundation

/// Members who joined the club fewer than `moderation.new_member_days` ago cannot put links in
/// meetup descriptions: the commonest spam is a fresh account advertising elsewhere.
struct LinkRule: Sendable {
    /// Days an account must be old before its meetups' descriptions may hold links; 0: no rule.
    let newMemberDays: Int

    /// Endings of addresses written without a scheme (`club.example.com/x`, `bit.ly/y`).
    private static let domainEndings = ["com", "net", "org", "io", "me", "co", "kr", "jp", "ly", "gg", "link", "xyz", "app", "site",
                                        "info", "biz", "shop", "online", "top", "club", "to", "so", "tv"]

    /// Whether `text` holds a link: a scheme (`https://`), `www.`, or a name ending in a common
    /// domain ending, after NFKC and case folding (so full-width letters do not hide one).
    static func holdsLink(_ text: String) -> Bool {
        let folded = text.precomposedStringWithCompatibilityMapping.lowercased()
        if folded.contains("://") || folded.contains("www.") { return true }
        let words = folded.split(whereSeparator: { $0.isWhitespace || $0 == "(" || $0 == ")" || $0 == "<" || $0 == ">" || $0 == "\"" })
        return words.contains { word in
            let host = word.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, let last = labels.last, domainEndings.contains(String(last)) else { return false }
            return labels.dropLast().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
        }
    }

    /// - Throws: `DomainError` `content_refused` (field `description`) when the host's account
    ///   is younger than the rule allows and the description holds a link; admins are not held.
    func check(description: String, hostID: Int64, by actor: Actor, now: Date, in db: Database) throws {
        guard newMemberDays > 0, !actor.isAdmin, !description.isEmpty, Self.holdsLink(description),
              let host = try UserRepository.find(id: hostID, in: db), host.role != .admin,
              now.timeIntervalSince(host.createdAt) < Double(newMemberDays) * 86_400 else { return }
        throw DomainError(.contentRefused, "Members of fewer than \(newMemberDays) days cannot put links in a meetup's description; remove the link, or add it after \(newMemberDays) days",
                          field: "description")
    }
}
