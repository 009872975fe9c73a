import BelayCore
import BelayDomain

/// One page of a list as every list endpoint answers it:
/// `{"items": [...], "next_cursor": "…" | null}`.
public struct ListBody<Item>: JSONRepresentable {
    public let items: [Item]
    public let nextCursor: String?
    public let writeItem: (inout JSONOutput, Item) -> Void

    public init(items: [Item], nextCursor: String?, writeItem: @escaping (inout JSONOutput, Item) -> Void) {
        self.items = items
        self.nextCursor = nextCursor
        self.writeItem = writeItem
    }

    public init<Source: Sendable>(page: Page<Source>, map: (Source) -> Item, writeItem: @escaping (inout JSONOutput, Item) -> Void) {
        self.init(items: page.items.map(map), nextCursor: page.nextCursor, writeItem: writeItem)
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in writeItem(&json, item) }
            json.member("next_cursor", nextCursor)
        }
    }
}

extension ListBody where Item: JSONRepresentable {
    public init(items: [Item], nextCursor: String?) {
        self.init(items: items, nextCursor: nextCursor) { json, item in item.write(to: &json) }
    }
}
