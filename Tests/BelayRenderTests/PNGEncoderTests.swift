import BelayTestSupport
import Testing
@testable import BelayRender

/// Every encoder configuration must produce PNGs that libpng decodes to the exact pixels.
struct PNGEncoderTests {
    static let compressors: [PNGSettings.Compressor] = [
        .zlib(level: 1, strategy: .automatic), .zlib(level: 1, strategy: .rle), .zlib(level: 6, strategy: .rle), .zlib(level: 1, strategy: .default), .zlib(level: 9, strategy: .filtered),
        .zlib(level: 0, strategy: .default), .zlib(level: 6, strategy: .huffmanOnly),
        .libdeflate(level: 1), .libdeflate(level: 6), .libdeflate(level: 12),
        .libpng(level: 6, strategy: .default), .libpng(level: 1, strategy: .rle),
    ]

    @Test(arguments: compressors)
    func roundTripsThroughLibpngForEveryFilter(compressor: PNGSettings.Compressor) throws {
        let image = TestImages.mixed(width: 97, height: 211)
        for filter in PNGRowFilter.allCases {
            for threads in [1, 3] {
                let settings = PNGSettings(filter: filter, compressor: compressor, threads: threads)
                let png = try PNGEncoder(settings: settings).encode(image)
                let decoded = try ImageDecoder.decode(png, name: "\(compressor) \(filter) x\(threads)", limits: BuiltInSettings.render().limits)
                #expect(decoded == image, "\(compressor) \(filter) x\(threads)")
            }
        }
    }

    @Test func rgbOutputFlattensOntoBlack() throws {
        let image = TestImages.mixed(width: 64, height: 150)
        for compressor in Self.compressors {
            let png = try PNGEncoder(settings: PNGSettings(compressor: compressor, threads: 2)).encode(image, as: .rgb)
            let decoded = try ImageDecoder.decode(png, name: "rgb", limits: BuiltInSettings.render().limits)
            #expect(decoded.isOpaque)
            for (x, y) in [(0, 0), (40, 10), (63, 149), (30, 77)] {
                let original = image.color(x: x, y: y)
                let expected = Color(
                    red: Pixmap.multiply(original.red, original.alpha), green: Pixmap.multiply(original.green, original.alpha),
                    blue: Pixmap.multiply(original.blue, original.alpha))
                #expect(decoded.color(x: x, y: y) == expected, "\(compressor) at \(x),\(y)")
            }
        }
    }

    @Test func splittingAcrossThreadsKeepsPixelsAndCostsAlmostNoBytes() throws {
        let image = TestImages.mixed(width: 300, height: 400)
        let single = try PNGEncoder(settings: PNGSettings(threads: 1)).encode(image)
        let split = try PNGEncoder(settings: PNGSettings(threads: 4)).encode(image)
        #expect(try ImageDecoder.decode(split, name: "split", limits: BuiltInSettings.render().limits) == image)
        #expect(Double(split.count) < Double(single.count) * 1.01)
    }

    @Test func streamedBandsMakeTheSameImageAsOneEncode() throws {
        let image = TestImages.mixed(width: 120, height: 333)
        let sink = MemorySink()
        let writer = try PNGStreamWriter(width: 120, height: 333, colorType: .rgba, settings: .default, sink: sink)
        var row = 0
        for height in [1, 100, 64, 168] {
            var band = Pixmap(width: 120, height: height)
            band.draw(image, x: 0, y: -row)
            try writer.append(band)
            row += height
        }
        try writer.finish()
        #expect(try ImageDecoder.decode(sink.bytes, name: "bands", limits: BuiltInSettings.render().limits) == image)
    }

    @Test func automaticStrategyMatchesRunsWhereThereAreRunsAndOnlyThere() throws {
        // A flat image is all runs: `auto` must compress it as well as `rle`.
        let flat = Pixmap(width: 300, height: 200, color: Color(red: 30, green: 60, blue: 114))
        let rle = try PNGEncoder(settings: PNGSettings(compressor: .zlib(level: 1, strategy: .rle))).encode(flat)
        let automatic = try PNGEncoder(settings: PNGSettings(compressor: .zlib(level: 1, strategy: .automatic))).encode(flat)
        #expect(automatic.count == rle.count)
        // Noise has no long runs: `auto` codes it like `huffman_only`.
        let noisy = TestImages.mixed(width: 300, height: 200)
        let huffman = try PNGEncoder(settings: PNGSettings(compressor: .zlib(level: 1, strategy: .huffmanOnly))).encode(noisy)
        let automaticNoisy = try PNGEncoder(settings: PNGSettings(compressor: .zlib(level: 1, strategy: .automatic))).encode(noisy)
        #expect(automaticNoisy.count == huffman.count)
    }

    @Test func refusesLevelsTheCompressorDoesNotHave() {
        let image = Pixmap(width: 4, height: 4)
        #expect(throws: RenderError.self) { try PNGEncoder(settings: PNGSettings(compressor: .zlib(level: 12, strategy: .rle))).encode(image) }
        #expect(throws: RenderError.self) { try PNGEncoder(settings: PNGSettings(compressor: .libdeflate(level: 13))).encode(image) }
    }

    @Test func jpegEncodesOpaqueImagesCloseToTheOriginal() throws {
        var image = Pixmap(width: 64, height: 48)
        image.fillVerticalGradient(top: Color(hex: "#1E3C72")!, bottom: Color(hex: "#2A5298")!)
        let jpeg = try JPEGEncoder(quality: 90).encode(image)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        let decoded = try ImageDecoder.decode(jpeg, name: "story.jpg", limits: BuiltInSettings.render().limits)
        let expected = image.color(x: 32, y: 24)
        let actual = decoded.color(x: 32, y: 24)
        #expect(abs(Int(actual.blue) - Int(expected.blue)) <= 3)
        #expect(throws: RenderError.self) { try JPEGEncoder(quality: 0).encode(image) }
    }
}
