/// The labels drawn while rendering one image.
struct StickerReport {
    private(set) var labels: [LabelReport] = []

    mutating func add(_ label: TextLabel, name: String, text: String) {
        labels.append(LabelReport(name: name, text: text, label: label))
    }

    var warnings: [String] { labels.compactMap(\.warning) }
}
