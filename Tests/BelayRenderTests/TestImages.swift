import Foundation
@testable import BelayRender

/// Inputs for the renderer's tests: committed fixtures and small synthetic images.
enum TestImages {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    static var background: String { fixture("bg_1.png") }
    static var hold: String { fixture("hold_1.png") }

    /// A deterministic image with smooth areas, noise, hard edges and every alpha level.
    static func mixed(width: Int, height: Int, seed: UInt64 = 1) -> Pixmap {
        var generator = SeededGenerator(seed: seed)
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                let noise = UInt8.random(in: 0...40, using: &generator)
                straight[index] = UInt8((x * 255) / max(1, width - 1)) &+ noise / 4
                straight[index + 1] = UInt8((y * 255) / max(1, height - 1))
                straight[index + 2] = (x / 7 + y / 5) % 2 == 0 ? 200 : noise
                straight[index + 3] = x < width / 3 ? 255 : UInt8(truncatingIfNeeded: (x * 7 + y * 3))
            }
        }
        return Pixmap(width: width, height: height, straightRGBA: straight)
    }

    /// Writes `bytes` to a new file in `directory` and returns its path.
    static func write(_ bytes: [UInt8], named name: String, in directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A small deterministic random generator (SplitMix64) so synthetic images never change.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
