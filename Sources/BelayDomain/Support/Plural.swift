/// English counts for messages: "1 render", "3 renders", "1 match", "2 matches".
public enum Plural {
    /// `count` and `noun`, the noun made plural unless `count` is 1 (`plural`, else the noun
    /// with an s).
    public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
