extension TextRule {
    /// A report's note to the moderators.
    public static let reportNote = TextRule(field: "note", noun: "A note", lengths: 0...2_000, allowsLineBreaks: true)
    /// A moderator's reason for an action, kept in the audit log.
    public static let moderationReason = TextRule(field: "reason", noun: "A reason", lengths: 1...1_000, allowsLineBreaks: true)
}
