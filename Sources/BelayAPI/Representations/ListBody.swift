import BelayCore
import BelayDomain

/// One page of a list as every list endpoint answers it:
/// `{"items": [...], "next_cursor": "…" | null}`.
struct ListBody<Item>: JSONRepresentable {
    let items: [Item]
    let nextCursor: String?
    let writeItem: (inout JSONOutput, Item) -> Void

    init(items: [Item], nextCursor: String?, writeItem: @escaping (inout JSONOutput, Item) -> Void) {
        self.items = items
        self.nextCursor = nextCursor
        self.writeItem = writeItem
    }

    init<Source: Sendable>(page: Page<Source>, map: (Source) -> Item, writeItem: @escaping (inout JSONOutput, Item) -> Void) {
        self.init(items: page.items.map(map), nextCursor: page.nextCursor, writeItem: writeItem)
    }

    func write(to json: inout JSONOutput) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in writeItem(&json, item) }
            json.member("next_cursor", nextCursor)
        }
    }
}

extension ListBody where Item: JSONRepresentable {
    init(items: [Item], nextCursor: String?) {
        self.init(items: items, nextCursor: nextCursor) { json, item in item.write(to: &json) }
    }
}
