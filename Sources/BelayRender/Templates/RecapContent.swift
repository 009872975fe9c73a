/// What a season recap story shows: the member and the period, three figures (sessions,
/// sends, the hardest), the grade pyramid, and the places climbed most.
public struct RecapContent: Sendable, Hashable {
    /// A big figure with the word under it ("48" over "sessions").
    public struct Figure: Sendable, Hashable {
        public var value: String
        public var caption: String

        public init(value: String, caption: String) {
            self.value = value
            self.caption = caption
        }
    }

    public var title: String
    public var subtitle: String
    /// Up to three.
    public var figures: [Figure]
    public var steps: [PyramidContent.Step]
    /// The heading over `places` and the places themselves ("더클라임 강남점 · 24"), at most three drawn.
    public var placesHeading: String
    public var places: [String]
    public var sendsWord: String
    public var flashesWord: String
    public var language: String

    public init(title: String, subtitle: String, figures: [Figure], steps: [PyramidContent.Step], placesHeading: String, places: [String],
                sendsWord: String, flashesWord: String, language: String) {
        self.title = title
        self.subtitle = subtitle
        self.figures = figures
        self.steps = steps
        self.placesHeading = placesHeading
        self.places = places
        self.sendsWord = sendsWord
        self.flashesWord = flashesWord
        self.language = language
    }
}
