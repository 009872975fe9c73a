import Foundation

/// A colour with straight (not premultiplied) 8-bit sRGB channels and alpha.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` is optional); nil when it is neither.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else {
            return nil
        }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: UInt8(rgba >> 24), green: UInt8(rgba >> 16 & 0xFF),
            blue: UInt8(rgba >> 8 & 0xFF), alpha: UInt8(rgba & 0xFF))
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque: the form the share payload sends.
    public var hex: String {
        func pair(_ value: UInt8) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + pair(red) + pair(green) + pair(blue) + (alpha == 255 ? "" : pair(alpha))
    }

    public var description: String { hex }

    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// WCAG 2.x relative luminance of the opaque colour (0 black … 1 white).
    public var relativeLuminance: Double {
        0.2126 * Self.linear[Int(red)] + 0.7152 * Self.linear[Int(green)] + 0.0722 * Self.linear[Int(blue)]
    }

    /// The WCAG 2.x contrast ratio of two opaque colours, 1…21.
    public func contrastRatio(with other: Color) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Each 8-bit sRGB value as linear light (IEC 61966-2-1).
    static let linear: [Double] = (0...255).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : Foundation.pow((c + 0.055) / 1.055, 2.4)
    }

    /// The colour premultiplied by its alpha, packed as the bytes R, G, B, A.
    var premultiplied: (UInt8, UInt8, UInt8, UInt8) {
        (
            Pixmap.multiply(red, alpha), Pixmap.multiply(green, alpha),
            Pixmap.multiply(blue, alpha), alpha
        )
    }
}
