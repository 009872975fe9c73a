import Foundation
import BelayTestSupport
import Testing
@testable import BelayRender

/// The place and date stay legible on every background of the catalogue: measured from the
/// decoded PNG, each keeps a WCAG 2.x contrast ratio of at least 4.5:1 with every pixel behind
/// it, whatever the hold.
struct TextContrastTests {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Assets")

    /// Every background of the catalogue, and the bright benchmark photograph.
    static var backgrounds: [String] {
        get throws {
            let data = try Data(contentsOf: assets.appendingPathComponent("backgrounds/catalog.json"))
            let catalog = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let entries = try #require(catalog["backgrounds"] as? [[String: Any]])
            return entries.compactMap { $0["file"] as? String }.map { assets.appendingPathComponent("backgrounds/\($0)").path }
                + [TestImages.background]
        }
    }

    static let holds = ["jug-gold.png", "pinch-obsidian.png", "volume-aurora.png", "crimp-violet.png"]

    /// WCAG 2.x relative luminance, computed here from the definition.
    static func luminance(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Double {
        func channel(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
    }

    /// The lowest contrast of each label (top to bottom) of `texted` against the same sticker
    /// drawn without text (`bare`): a label is a band of rows where the two differ; its colour
    /// is the pixel that differs most from what is behind it (a glyph's solid core), and it is
    /// compared with every pixel of `bare` in the box around its ink.
    static func lowestContrasts(texted: Pixmap, bare: Pixmap) -> [Double] {
        let width = texted.width
        var differing = [Bool](repeating: false, count: width * texted.height)
        var rowHasInk = [Bool](repeating: false, count: texted.height)
        for y in 0..<texted.height {
            for x in 0..<width {
                let a = texted.color(x: x, y: y), b = bare.color(x: x, y: y)
                if abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue)) > 24 {
                    differing[y * width + x] = true
                    rowHasInk[y] = true
                }
            }
        }
        var bands: [Range<Int>] = []
        var start: Int?
        for y in 0...texted.height {
            let ink = y < texted.height && rowHasInk[y]
            if ink, start == nil { start = y }
            if !ink, let first = start {
                // Rows of one line (a gap under a third of the band joins them: accents, dots).
                if let last = bands.last, first - last.upperBound < 4 {
                    bands[bands.count - 1] = last.lowerBound..<y
                } else {
                    bands.append(first..<y)
                }
                start = nil
            }
        }
        return bands.map { band in
            var left = width, right = 0
            var textColor = Color.black
            var strongest = -1
            for y in band {
                for x in 0..<width where differing[y * width + x] {
                    left = min(left, x)
                    right = max(right, x)
                    let a = texted.color(x: x, y: y), b = bare.color(x: x, y: y)
                    let difference = abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
                    if difference > strongest {
                        strongest = difference
                        textColor = a
                    }
                }
            }
            let text = luminance(textColor.red, textColor.green, textColor.blue)
            var lowest = 21.0
            for y in band {
                for x in left...right {
                    let behind = bare.color(x: x, y: y)
                    let background = luminance(behind.red, behind.green, behind.blue)
                    lowest = min(lowest, (max(text, background) + 0.05) / (min(text, background) + 0.05))
                }
            }
            return lowest
        }
    }

    @Test func placeAndDateKeep4_5To1OnEveryBackgroundWithEveryHold() throws {
        let renderer = try Renderer(settings: BuiltInSettings.render())
        for background in try Self.backgrounds {
            for hold in Self.holds {
                for place in ["더클라임 강남점", "Granite Boulders of the Seoul Forest Climbing Centre"] {
                    let content = StickerContent(
                        backgroundPath: background, holdPath: Self.assets.appendingPathComponent("holds/\(hold)").path,
                        place: place, date: "2026.11.29 (일)")
                    var bare = content
                    bare.place = ""
                    bare.date = ""
                    let texted = try ImageDecoder.decode(try renderer.renderSticker(content, scale: 2).bytes, name: "sticker", limits: BuiltInSettings.render().limits)
                    let without = try ImageDecoder.decode(try renderer.renderSticker(bare, scale: 2).bytes, name: "bare", limits: BuiltInSettings.render().limits)
                    let contrasts = Self.lowestContrasts(texted: texted, bare: without)
                    let name = "\(URL(fileURLWithPath: background).lastPathComponent) with \(hold), \(place)"
                    #expect(contrasts.count >= 2, "\(name): found \(contrasts.count) text bands")
                    for contrast in contrasts {
                        #expect(contrast >= 4.5, "\(name): a label's lowest contrast is \(String(format: "%.2f", contrast)):1")
                    }
                }
            }
        }
    }
}
