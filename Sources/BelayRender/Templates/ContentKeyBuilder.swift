import BelayCore

/// Collects a rendered image's inputs (the template and its version, the artworks' digests, the
/// text, the scale, the colours, the format and the fonts) as `name=<byte count>:<value>`
/// lines, so no two different inputs can produce the same `ContentKey`.
struct ContentKeyBuilder {
    private var lines: [String]

    init(template: Template) {
        lines = ["belay-render", "template=\(template.rawValue)", "version=\(template.version)"]
    }

    mutating func add(_ name: String, _ value: String) {
        lines.append("\(name)=\(value.utf8.count):\(value)")
    }

    func finish() -> ContentKey {
        let canonical = lines.joined(separator: "\n")
        return ContentKey(canonical: canonical)
    }
}
