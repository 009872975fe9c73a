import BelayTestSupport
import Foundation
import Testing
@testable import BelayRender

/// Every class of bad input is refused with an error that names the file.
struct ImageDecoderTests {
    private func expectFailure(_ path: String, limits: ImageLimits = BuiltInSettings.render().limits, code: String) {
        do {
            _ = try ImageDecoder.decode(contentsOf: path, limits: limits)
            Issue.record("\(path) decoded, expected \(code)")
        } catch let error as RenderError {
            #expect(error.code == code, "\(error)")
            #expect(error.description.contains(path), "\(error) does not name the file")
            #expect(error.isBadInput)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    private func validPNG() throws -> [UInt8] {
        try PNGEncoder().encode(TestImages.mixed(width: 40, height: 30))
    }

    @Test func decodesTheFixtures() throws {
        let background = try ImageDecoder.decode(contentsOf: TestImages.background, limits: BuiltInSettings.render().limits)
        #expect(background.width == 1080 && background.height == 1440 && background.isOpaque)
        let hold = try ImageDecoder.decode(contentsOf: TestImages.hold, limits: BuiltInSettings.render().limits)
        #expect(hold.width == 512 && hold.height == 512)
        #expect(hold.color(x: 0, y: 0).alpha == 0)
        #expect(hold.color(x: 256, y: 256).alpha == 255)
    }

    @Test func refusesTruncatedFiles() throws {
        let directory = try TemporaryDirectory()
        let png = try validPNG()
        for length in [9, 30, 60, png.count / 2, png.count - 13] {
            let path = try TestImages.write(Array(png[..<length]), named: "cut-\(length).png", in: directory.path)
            do {
                _ = try ImageDecoder.decode(contentsOf: path, limits: BuiltInSettings.render().limits)
                Issue.record("truncated at \(length) decoded")
            } catch let error as RenderError {
                #expect(["image_truncated", "image_corrupt"].contains(error.code), "\(length): \(error)")
                #expect(error.description.contains(path))
            }
        }
        expectFailure(
            try TestImages.write(Array(png[..<(png.count / 2)]), named: "half.png", in: directory.path),
            code: "image_truncated")
        let jpeg = try JPEGEncoder(quality: 90).encode(TestImages.mixed(width: 64, height: 64))
        expectFailure(
            try TestImages.write(Array(jpeg[..<(jpeg.count / 2)]), named: "half.jpg", in: directory.path),
            code: "image_truncated")
    }

    @Test func refusesCorruptFiles() throws {
        let directory = try TemporaryDirectory()
        var png = try validPNG()
        png[png.count / 2] ^= 0xFF  // inside IDAT: the chunk's CRC no longer matches
        expectFailure(try TestImages.write(png, named: "flipped.png", in: directory.path), code: "image_corrupt")
        var header = try validPNG()
        header[24] = 7  // bit depth 7 does not exist
        expectFailure(try TestImages.write(header, named: "depth.png", in: directory.path), code: "image_corrupt")
        var jpeg = try JPEGEncoder(quality: 90).encode(TestImages.mixed(width: 64, height: 64))
        for index in stride(from: jpeg.count / 3, to: jpeg.count - 2, by: 7) { jpeg[index] = 0xFF }
        expectFailure(try TestImages.write(jpeg, named: "scrambled.jpg", in: directory.path), code: "image_corrupt")
    }

    @Test func refusesFilesThatAreNotImages() throws {
        let directory = try TemporaryDirectory()
        expectFailure(
            try TestImages.write(Array("name,place\nbelay,gangnam\n".utf8), named: "holds.png", in: directory.path),
            code: "not_an_image")
        expectFailure(try TestImages.write([], named: "empty.png", in: directory.path), code: "file_empty")
        do {
            _ = try ImageDecoder.decode(contentsOf: directory.file("missing.png"), limits: BuiltInSettings.render().limits)
            Issue.record("missing file decoded")
        } catch let error as RenderError {
            #expect(error.code == "file_unreadable" && error.description.contains("missing.png"))
        }
    }

    @Test func refusesZeroSizedImages() throws {
        let directory = try TemporaryDirectory()
        expectFailure(try TestImages.write(Self.pngHeader(width: 0, height: 10), named: "zero.png", in: directory.path), code: "image_empty")
        expectFailure(try TestImages.write(Self.pngHeader(width: 10, height: 0), named: "flat.png", in: directory.path), code: "image_empty")
    }

    @Test func refusesImagesOverTheLimits() throws {
        let directory = try TemporaryDirectory()
        // Declared sizes are checked before anything is decoded.
        expectFailure(try TestImages.write(Self.pngHeader(width: 9000, height: 2), named: "wide.png", in: directory.path), code: "image_too_large")
        expectFailure(try TestImages.write(Self.pngHeader(width: 5000, height: 5000), named: "big.png", in: directory.path), code: "image_too_many_bytes")
        let real = try TestImages.write(try validPNG(), named: "real.png", in: directory.path)
        expectFailure(real, limits: ImageLimits(maxSide: 32, maxDecodedBytes: 1 << 20), code: "image_too_large")
        expectFailure(real, limits: ImageLimits(maxSide: 100, maxDecodedBytes: 4000), code: "image_too_many_bytes")
        let jpeg = try TestImages.write(try JPEGEncoder(quality: 90).encode(TestImages.mixed(width: 64, height: 48)), named: "real.jpg", in: directory.path)
        expectFailure(jpeg, limits: ImageLimits(maxSide: 50, maxDecodedBytes: 1 << 20), code: "image_too_large")
    }

    /// A PNG signature and a well-formed IHDR (correct CRC) declaring the given size, then IEND.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        let sink = MemorySink()
        let container = PNGContainer(sink: sink)
        var header: [UInt8] = []
        header.appendBigEndian(width)
        header.appendBigEndian(height)
        header += [8, 6, 0, 0, 0]
        try! header.withUnsafeBytes { bytes in
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            try signature.withUnsafeBytes { try sink.write($0) }
            try container.writeChunk("IHDR", bytes)
            try container.writeEnd()
        }
        return sink.bytes
    }
}
