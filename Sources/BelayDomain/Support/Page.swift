import BelayCore
import Foundation

/// One page of a list, and the cursor for the next page (nil on the last page).
public struct Page<Item: Sendable>: Sendable {
    /// The items, in the list's order.
    public let items: [Item]
    /// An opaque string to pass back for the next page; nil when there is none.
    public let nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// A position in a keyset-paginated list: the sort key and id of the last item shown.
///
/// Encoded as base64url of `"<list>:<key>:<id>"`, so a client treats it as opaque and a
/// cursor from one list is refused by another.
struct Cursor: Equatable {
    let list: String
    let key: Int64
    let id: Int64

    var encoded: String {
        Crypto.base64URL(Array("\(list):\(key):\(id)".utf8))
    }

    /// Decodes `text` for the list `list`.
    /// - Throws: `DomainError.invalidCursor` when it is malformed or from another list.
    static func decode(_ text: String, list: String) throws -> Cursor {
        guard let bytes = Crypto.decodeBase64URL(text) else { throw invalid(list) }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == list, let key = Int64(parts[1]), let id = Int64(parts[2]) else {
            throw invalid(list)
        }
        return Cursor(list: list, key: key, id: id)
    }

    private static func invalid(_ list: String) -> DomainError {
        DomainError(.invalidCursor, "The cursor is not one this \(list) list gave out; start again without a cursor", field: "cursor")
    }
}

/// Checks a page size: 1…`maximum`.
func validatedLimit(_ limit: Int, maximum: Int = 200) throws -> Int {
    guard (1...maximum).contains(limit) else {
        throw DomainError.invalid("limit", "The page size must be between 1 and \(maximum) (got \(limit))")
    }
    return limit
}
