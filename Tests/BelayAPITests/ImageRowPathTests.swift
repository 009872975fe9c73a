@testable import BelayComposition
import Testing

/// A reward row can only ever name a key inside the bucket's image folder:
/// `images/<the digest's first two hex digits>/<64 lowercase hex>.<png|jpg|jpeg>`.
@Suite struct ImageRowPathTests {
    static let digest = "ab" + String(repeating: "0123456789abcdef", count: 4).dropFirst(2)

    @Test func theDirectoryStoresNamesAreImageRowPaths() {
        for fileExtension in ["png", "jpg", "jpeg"] {
            #expect(ImageStorage.isImageRowPath("images/ab/\(Self.digest).\(fileExtension)"), "\(fileExtension)")
        }
    }

    @Test(arguments: [
        "", "images", "images/ab/", "images/ab/\(digest)", "images/ab/\(digest).", "images/ab/\(digest).gif", "images/ab/\(digest).png/x",
        "images/cd/\(digest).png", "images/ab/\(digest.uppercased()).png", "images/ab/\(digest.dropLast()).png",
        "images/ab/\(digest)0.png", "Images/ab/\(digest).png", "images//ab\(digest).png", "images/ab/../\(digest).png",
        "cards/ab/\(digest).png", "images/ab/\(digest.dropLast())é.png", "images/ab/\(digest).pngx", "/images/ab/\(digest).png",
    ])
    func anythingElseIsNot(_ path: String) {
        #expect(!ImageStorage.isImageRowPath(path), "\(path)")
    }
}
