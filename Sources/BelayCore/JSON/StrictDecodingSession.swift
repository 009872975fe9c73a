import Foundation

/// Which members of one object the decoded types asked for.
final class MemberUsage {
    let object: JSONObject
    let path: [any CodingKey]
    var used: [Bool]

    init(object: JSONObject, path: [any CodingKey]) {
        self.object = object
        self.path = path
        used = Array(repeating: false, count: object.count)
    }

    /// The value of `key`, marked as asked for.
    func value(for key: String) -> JSONValue? {
        guard let position = object.position(of: key) else { return nil }
        used[position] = true
        return object.values[position]
    }
}

/// State shared by one decoding: the objects opened as keyed containers, by path, to find
/// unknown members afterwards. Used by one decoding on one thread.
final class StrictDecodingSession {
    private var opened: [MemberUsage] = []
    private var byPath: [String: MemberUsage] = [:]

    /// The usage record of the object at `path`, made on first use (a type may open the same
    /// object's container more than once).
    func usage(of object: JSONObject, at path: [any CodingKey]) -> MemberUsage {
        let key = path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        if let usage = byPath[key] { return usage }
        let usage = MemberUsage(object: object, path: path)
        byPath[key] = usage
        opened.append(usage)
        return usage
    }

    /// The path of the first member, in document order, that no decoded type asked for.
    func firstUnknownMember() -> [any CodingKey]? {
        for usage in opened {
            if let index = usage.used.firstIndex(of: false) { return usage.path + [JSONKey(stringValue: usage.object.keys[index])] }
        }
        return nil
    }
}
