import BelayRender
import Foundation
import BelayTestSupport
import Testing

/// `iTXt` chunks: what badges are baked into.
@Suite struct PNGTextChunkTests {
    static func image() throws -> [UInt8] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets/holds/jug-gold.png").path
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aChunkIsWrittenAfterTheHeaderAndReadBackByKeyword() throws {
        let png = try Self.image()
        #expect(PNGTextChunk.text(keyword: "openbadgecredential", in: png) == nil)
        let token = "eyJhbGciOiJFZERTQSJ9.eyJpc3MiOiJodHRwczovL2JlbGF5LmV4YW1wbGUvaXNzdWVyIn0.c2lnbmF0dXJl"
        let baked = try PNGTextChunk.inserting(keyword: "openbadgecredential", text: token, into: png)
        #expect(PNGTextChunk.text(keyword: "openbadgecredential", in: baked) == token)
        #expect(PNGTextChunk.text(keyword: "other", in: baked) == nil)
        #expect(baked.count == png.count + 12 + "openbadgecredential".utf8.count + 5 + token.utf8.count)
        // Right after IHDR, and the image still decodes.
        #expect(String(decoding: baked[37..<41], as: UTF8.self) == "iTXt")
        let pixmap = try ImageDecoder.decode(baked, name: "baked.png", limits: BuiltInSettings.render().limits)
        #expect(pixmap.width > 0)
    }

    @Test func badInputIsRefused() throws {
        #expect(throws: RenderError.self) { try PNGTextChunk.inserting(keyword: "x", text: "y", into: [1, 2, 3]) }
        #expect(throws: RenderError.self) { try PNGTextChunk.inserting(keyword: "", text: "y", into: try Self.image()) }
        #expect(PNGTextChunk.text(keyword: "x", in: [0x89, 0x50]) == nil)
    }
}
