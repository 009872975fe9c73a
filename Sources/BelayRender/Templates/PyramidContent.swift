/// What a grade pyramid shows: a title and the period under it, one bar a grade (hardest at
/// the top), each split into sends and flashes, in the step's colour when the grade is a gym's
/// colour level, and a legend in the member's language.
public struct PyramidContent: Sendable, Hashable {
    /// One grade's bar.
    public struct Step: Sendable, Hashable {
        /// The grade as the member reads it (`V5`, `6c`, `V4–V5`).
        public var label: String
        public var sends: Int
        public var flashes: Int
        /// `#RRGGBB` of a colour level; nil draws the template's own colour.
        public var colour: String?

        public init(label: String, sends: Int, flashes: Int, colour: String? = nil) {
            self.label = label
            self.sends = sends
            self.flashes = flashes
            self.colour = colour
        }
    }

    public var title: String
    public var subtitle: String
    /// Hardest first; at most `PyramidTemplate.maximumSteps` are drawn (the hardest).
    public var steps: [Step]
    /// The legend's words for sends and flashes.
    public var sendsWord: String
    public var flashesWord: String
    /// A BCP 47 language tag for shaping and the Han forms (`ko`, `ja`, `en`).
    public var language: String

    public init(title: String, subtitle: String, steps: [Step], sendsWord: String, flashesWord: String, language: String) {
        self.title = title
        self.subtitle = subtitle
        self.steps = steps
        self.sendsWord = sendsWord
        self.flashesWord = flashesWord
        self.language = language
    }
}
