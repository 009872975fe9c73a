import CQREncode

/// A QR code made with libqrencode and drawn by Belay as SVG: the modules as one path of
/// horizontal runs, on a white square with the four-module quiet zone scanners need.
struct QRCode: Sendable, Hashable {
    /// Modules per side, without the quiet zone.
    let size: Int
    /// Row-major, true for a dark module.
    let modules: [Bool]

    /// The quiet zone on each side, in modules (ISO/IEC 18004 asks for four).
    static let quietZone = 4

    /// Encodes `text` as bytes at error-correction level Q (a quarter of the symbol can be
    /// lost to glare on a glossy screen and it still reads), in the smallest version that holds it.
    /// - Returns: nil when libqrencode cannot encode it (longer than a QR code holds).
    init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_Q, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        size = width
        // Bit 0 of each byte is the module's colour (1 dark); the other bits say what kind of module it is.
        modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
    }

    /// The side of the drawing, quiet zone included, in modules: the SVG's `viewBox` is this square.
    var side: Int { size + 2 * Self.quietZone }

    /// The dark modules as an SVG path in module units (quiet zone included): one
    /// `M x y h n v 1 h -n z` rectangle per horizontal run.
    var path: String {
        var path = ""
        path.reserveCapacity(size * size)
        for row in 0..<size {
            var column = 0
            while column < size {
                guard modules[row * size + column] else { column += 1; continue }
                var end = column
                while end < size && modules[row * size + end] { end += 1 }
                let run = end - column
                path += "M\(column + Self.quietZone) \(row + Self.quietZone)h\(run)v1h-\(run)z"
                column = end
            }
        }
        return path
    }

    /// The whole code as an inline `<svg>` element, scaled by CSS to its box; `label` is its
    /// accessible name. Its parts carry ids for the kiosk's script to redraw.
    func svg(label: String) -> String {
        """
        <svg id="qr" role="img" aria-label="\(HTMLText.escaped(label))" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" \
        shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path id="qr-modules" fill="#000" d="\(path)"/></svg>
        """
    }
}
