import Foundation
import BelayTestSupport
import Testing
@testable import BelayRender

/// Compares rendered images with reference PNGs in `Goldens/`.
///
/// Tolerance: the images must have the same size, no channel of any pixel may differ by more
/// than 64 levels, at most 0.5% of the pixels may differ by more than 8 levels, and the mean
/// absolute difference must stay under 0.5 levels. That absorbs rounding differences between
/// FreeType/HarfBuzz/zlib builds, and fails on any visible change (a moved label, another
/// font, a different crop or filter).
///
/// A missing reference fails. `BELAY_RECORD_GOLDENS=1` (re)writes the references instead;
/// the test then fails once so a recording run is never mistaken for a passing one.
enum GoldenImage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static var recording: Bool { ProcessInfo.processInfo.environment["BELAY_RECORD_GOLDENS"] == "1" }

    static func check(_ png: [UInt8], named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = directory.appendingPathComponent(name + ".png")
        if recording {
            // References are stored as compactly as the encoder allows; pixels are what count.
            let pixels = try ImageDecoder.decode(png, name: name, limits: BuiltInSettings.render().limits)
            let compact = try PNGEncoder(settings: PNGSettings(compressor: .libdeflate(level: 12)))
                .encode(pixels, as: pixels.isOpaque ? .rgb : .rgba)
            try Data(compact).write(to: reference)
            Issue.record("Recorded \(reference.path); run the tests again without BELAY_RECORD_GOLDENS.", sourceLocation: sourceLocation)
            return
        }
        guard FileManager.default.fileExists(atPath: reference.path) else {
            Issue.record("Missing golden image \(reference.path). Look at the output, then record it with BELAY_RECORD_GOLDENS=1.", sourceLocation: sourceLocation)
            return
        }
        let expected = try ImageDecoder.decode(contentsOf: reference.path, limits: BuiltInSettings.render().limits)
        let actual = try ImageDecoder.decode(png, name: name, limits: BuiltInSettings.render().limits)
        guard expected.width == actual.width, expected.height == actual.height else {
            Issue.record("\(name): \(actual.width)x\(actual.height), the reference is \(expected.width)x\(expected.height)", sourceLocation: sourceLocation)
            return
        }
        let difference = compare(expected, actual)
        let pixelCount = Double(expected.width * expected.height)
        let passes = difference.largest <= 64 && Double(difference.over8) <= pixelCount * 0.005 && difference.mean < 0.5
        if !passes {
            let failed = FileManager.default.temporaryDirectory.appendingPathComponent("belay-golden-\(name).png")
            try? Data(png).write(to: failed)
            let summary = "largest channel difference \(difference.largest), \(difference.over8) pixels off by more than 8, mean \(difference.mean)"
            Issue.record("\(name) differs from its golden: \(summary). Output written to \(failed.path).", sourceLocation: sourceLocation)
        }
    }

    /// Differences of straight-alpha channels (colour compared only where alpha makes it
    /// visible), over the raw bytes so large images compare quickly.
    static func compare(_ a: Pixmap, _ b: Pixmap) -> (largest: Int, over8: Int, mean: Double) {
        let straightA = PNGRows.straight(a, rows: 0..<a.height, colorType: .rgba)
        let straightB = PNGRows.straight(b, rows: 0..<b.height, colorType: .rgba)
        var largest = 0
        var over8 = 0
        var total = 0
        straightA.withUnsafeBufferPointer { p in
            straightB.withUnsafeBufferPointer { q in
                var index = 0
                while index < p.count {
                    let visible = max(p[index + 3], q[index + 3]) > 16
                    var worst = 0
                    for channel in (visible ? 0 : 3)..<4 {
                        let difference = abs(Int(p[index + channel]) - Int(q[index + channel]))
                        worst = max(worst, difference)
                        total += difference
                    }
                    largest = max(largest, worst)
                    if worst > 8 { over8 += 1 }
                    index += 4
                }
            }
        }
        return (largest, over8, Double(total) / Double(a.width * a.height * 4))
    }
}
