/// One header field as sent: the name keeps its spelling, lookups ignore ASCII case.
public struct HTTPField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public private(set) var fields: [HTTPField]

    public init() { fields = [] }

    public init(_ fields: [HTTPField]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    /// The first value of the field `name`, or nil when absent.
    public subscript(name: String) -> String? {
        get {
            for field in fields where Self.namesMatch(field.name, name) { return field.value }
            return nil
        }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(HTTPField(name: name, value: value))
    }

    /// Sets the field to exactly one value.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[index].value = value
            // Later duplicates go; the first keeps its position.
            var position = 0
            fields.removeAll { field in
                defer { position += 1 }
                return position > index && Self.namesMatch(field.name, name)
            }
        } else {
            add(name: name, value: value)
        }
    }

    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison without allocating lowercased copies.
    @inlinable
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs.utf8.makeIterator()
        var rhs = rhs.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil): return true
            case let (left?, right?):
                if left != right && asciiLowercased(left) != asciiLowercased(right) { return false }
            default: return false
            }
        }
    }

    @inlinable
    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
