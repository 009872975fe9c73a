/// A JSON object: members in the order they were written or added, looked up by name.
/// Equality ignores the order, as JSON's does; writers that need a fixed order sort the names.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member: its name and value.
    public typealias Member = (key: String, value: JSONValue)

    /// The member names, in order.
    public private(set) var keys: [String] = []
    /// The member values, in the order of `keys`.
    public private(set) var values: [JSONValue] = []
    /// Positions by name, kept once an object is big enough for a linear search to cost.
    private var index: [String: Int]?

    private static let indexThreshold = 16

    /// An empty object.
    public init() {}

    /// The members in this order; a repeated name keeps its last value (in its first place).
    public init(_ members: some Sequence<(String, JSONValue)>) {
        for (key, value) in members { self[key] = value }
    }

    /// The dictionary's members, in name order.
    public init(_ dictionary: [String: JSONValue]) {
        self.init(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    /// How many members the object has.
    public var count: Int { keys.count }
    /// True for `{}`.
    public var isEmpty: Bool { keys.isEmpty }

    /// Where the member `key` is, or nil.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// The value of the member `key`; setting nil removes it, setting a new name appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    keys.remove(at: position)
                    values.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                if index != nil { index?[key] = keys.count - 1 } else if keys.count > Self.indexThreshold { rebuildIndex() }
            }
        }
    }

    /// The same names with transformed values.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var copy = self
        copy.values = try values.map(transform)
        return copy
    }

    /// This object with `other`'s members added; for a name in both, `combine` picks the value.
    public func merging(_ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) -> JSONValue) -> JSONObject {
        var merged = self
        for (key, value) in other { merged[key] = merged[key].map { combine($0, value) } ?? value }
        return merged
    }

    /// Walks the members in order.
    public struct Iterator: IteratorProtocol {
        private let object: JSONObject
        private var position = 0

        init(_ object: JSONObject) { self.object = object }

        public mutating func next() -> Member? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && zip(lhs.keys, lhs.values).allSatisfy { rhs[$0] == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for key in keys.sorted() {
            hasher.combine(key)
            hasher.combine(self[key])
        }
    }

    private mutating func rebuildIndex() {
        index = keys.count > Self.indexThreshold ? Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }) : nil
    }
}
