import Testing
@testable import BelayRender

struct PixmapTests {
    @Test func premultipliesOnTheWayInAndBackOnTheWayOut() {
        let straight: [UInt8] = [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255]
        let pixmap = Pixmap(width: 3, height: 1, straightRGBA: straight)
        #expect(Array(pixmap.bytes[0..<4]) == [100, 50, 25, 128])
        #expect(Array(pixmap.bytes[4..<8]) == [0, 0, 0, 0])
        #expect(pixmap.color(x: 2, y: 0) == Color(red: 10, green: 20, blue: 30))
        #expect(pixmap.color(x: 0, y: 0) == Color(red: 199, green: 100, blue: 50, alpha: 128))
    }

    @Test func sourceOverBlendsByAlpha() {
        var base = Pixmap(width: 2, height: 2, color: Color(red: 0, green: 0, blue: 255))
        let overlay = Pixmap(width: 1, height: 1, color: Color(red: 255, green: 0, blue: 0, alpha: 128))
        base.draw(overlay, x: 1, y: 1)
        base.draw(overlay, x: 5, y: 5)  // entirely outside: nothing happens
        #expect(base.color(x: 0, y: 0) == Color(red: 0, green: 0, blue: 255))
        let mixed = base.color(x: 1, y: 1)
        #expect(mixed.alpha == 255 && abs(Int(mixed.red) - 128) <= 1 && abs(Int(mixed.blue) - 127) <= 1)
    }

    @Test func roundedClipIsTransparentOutsideOpaqueInsideAndSmoothOnTheEdge() {
        var card = Pixmap(width: 200, height: 100, color: .white)
        card.clip(to: RoundedRectangle(x: 0, y: 0, width: 200, height: 100, radius: 30))
        #expect(card.color(x: 0, y: 0).alpha == 0)
        #expect(card.color(x: 199, y: 99).alpha == 0)
        #expect(card.color(x: 100, y: 50).alpha == 255)
        #expect(card.color(x: 0, y: 50).alpha == 255)
        #expect(card.color(x: 100, y: 0).alpha == 255)
        // Along the corner arc some pixels are partly covered: anti-aliased, not jagged.
        let partial = (0..<30).filter { let alpha = card.color(x: $0, y: $0).alpha; return alpha > 0 && alpha < 255 }
        #expect(!partial.isEmpty)
        // The four corners are symmetric.
        for (x, y) in [(3, 5), (8, 2), (12, 1)] {
            let alpha = card.color(x: x, y: y).alpha
            #expect(card.color(x: 199 - x, y: y).alpha == alpha)
            #expect(card.color(x: x, y: 99 - y).alpha == alpha)
            #expect(card.color(x: 199 - x, y: 99 - y).alpha == alpha)
        }
    }

    @Test func verticalGradientRunsFromTopColourToBottomColour() {
        var story = Pixmap(width: 3, height: 101)
        let top = Color(hex: "#1E3C72")!
        let bottom = Color(hex: "#2A5298")!
        story.fillVerticalGradient(top: top, bottom: bottom)
        #expect(story.color(x: 0, y: 0) == top)
        #expect(story.color(x: 2, y: 100) == bottom)
        #expect(story.color(x: 1, y: 50) == Color(red: 0x24, green: 0x47, blue: 0x85))
    }

    @Test func resamplingKeepsFlatAreasFlatAndEdgesFreeOfDarkFringes() {
        // A red square on transparency: after scaling, every visible pixel is still pure red.
        var image = Pixmap(width: 64, height: 64)
        image.draw(Pixmap(width: 32, height: 32, color: Color(red: 255, green: 0, blue: 0)), x: 16, y: 16)
        for size in [(20, 20), (47, 31), (100, 130)] {
            let scaled = image.resized(toWidth: size.0, height: size.1)
            #expect(scaled.width == size.0 && scaled.height == size.1)
            for y in 0..<scaled.height {
                for x in 0..<scaled.width {
                    let color = scaled.color(x: x, y: y)
                    if color.alpha > 8 {
                        #expect(color.red >= 250 && color.green <= 4 && color.blue <= 4, "\(size) at \(x),\(y): \(color)")
                    }
                }
            }
        }
        let flat = Pixmap(width: 90, height: 70, color: Color(red: 12, green: 150, blue: 99))
        let shrunk = flat.resized(toWidth: 31, height: 17, parallelism: 2)
        #expect(shrunk == Pixmap(width: 31, height: 17, color: Color(red: 12, green: 150, blue: 99)))
    }

    @Test func coverAndFitKeepTheAspectRatio() {
        let wide = Pixmap(width: 400, height: 100, color: .white)
        let fitted = wide.resizedToFit(width: 160, height: 160)
        #expect(fitted.width == 160 && fitted.height == 40)
        let covered = wide.resizedToCover(width: 100, height: 100)
        #expect(covered.width == 100 && covered.height == 100 && covered.isOpaque)
    }

    @Test func parallelResamplingMatchesSingleThreaded() {
        let image = TestImages.mixed(width: 300, height: 500)
        #expect(image.resizedToCover(width: 120, height: 160) == image.resizedToCover(width: 120, height: 160, parallelism: 3))
    }

    @Test func parsesAndPrintsHexColours() {
        #expect(Color(hex: "#1E3C72") == Color(red: 0x1E, green: 0x3C, blue: 0x72))
        #expect(Color(hex: "a0a0a080")?.alpha == 0x80)
        #expect(Color(hex: "#12345") == nil)
        #expect(Color(hex: "#GGGGGG") == nil)
        #expect(Color(red: 0x2A, green: 0x52, blue: 0x98).hex == "#2A5298")
    }
}
