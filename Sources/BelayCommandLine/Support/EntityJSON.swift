import BelayArguments
import BelayCore
import BelayRepresentations

extension CommandContext {
    /// Writes `entity` to standard output in the one JSON shape the API answers with and
    /// webhooks carry (`BelayRepresentations`): snake_case members in a fixed order, times
    /// with their offset (a meetup's in the meetup's zone).
    func printJSON(_ entity: some JSONRepresentable) {
        print(String(decoding: entity.jsonBytes, as: UTF8.self))
    }

    /// Writes `entities` as a JSON array of their API shapes (see `printJSON(_:)`).
    func printJSON<Entity: JSONRepresentable>(_ entities: [Entity]) {
        var json = JSONOutput(capacity: 512 * max(entities.count, 1))
        json.array(entities) { json, entity in entity.write(to: &json) }
        print(String(decoding: json.bytes, as: UTF8.self))
    }
}
