import Foundation

/// A value as SQLite stores it: NULL, a 64-bit integer, a double, UTF-8 text or a blob.
public enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// A short name of the storage class, for error messages.
    var storageClassName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "an integer"
        case .real: return "a real"
        case .text: return "text"
        case .blob: return "a blob"
        }
    }
}

/// A Swift type that can be bound as a statement argument and read back from a column.
///
/// The conversions below are inlinable, so that reading a column in another module is
/// specialised for its type instead of looking up generic metadata at run time.
///
/// Conversions: `Int64`, `Int`, `Int32` ⇄ INTEGER; `Double` ⇄ REAL (an INTEGER column reads
/// as a double too); `String` ⇄ TEXT; `Data` ⇄ BLOB; `Bool` ⇄ INTEGER 0/1; `Date` ⇄
/// INTEGER milliseconds since 1970-01-01T00:00:00Z (so times sort and compare exactly);
/// `Optional` ⇄ the wrapped type or NULL.
public protocol DatabaseValueConvertible: Sendable {
    /// The value to bind.
    var databaseValue: DatabaseValue { get }
    /// Reads a value, or returns nil when the stored value cannot represent `Self`.
    init?(databaseValue: DatabaseValue)
}

extension DatabaseValue: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { self }
    @inlinable
    public init?(databaseValue: DatabaseValue) { self = databaseValue }
}

extension Int64: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .integer(self) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        guard case let .integer(value) = databaseValue else { return nil }
        self = value
    }
}

extension Int: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        guard case let .integer(value) = databaseValue, let converted = Int(exactly: value) else { return nil }
        self = converted
    }
}

extension Int32: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        guard case let .integer(value) = databaseValue, let converted = Int32(exactly: value) else { return nil }
        self = converted
    }
}

extension Double: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .real(self) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case let .real(value): self = value
        case let .integer(value): self = Double(value)
        default: return nil
        }
    }
}

extension String: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .text(self) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        guard case let .text(value) = databaseValue else { return nil }
        self = value
    }
}

extension Data: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .blob(self) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case let .blob(value): self = value
        case .null: return nil
        default: return nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        guard case let .integer(value) = databaseValue else { return nil }
        self = value != 0
    }
}

extension Date: DatabaseValueConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest millisecond.
    @inlinable
    public var databaseValue: DatabaseValue { .integer(millisecondsSince1970) }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        guard case let .integer(value) = databaseValue else { return nil }
        self.init(millisecondsSince1970: value)
    }

    /// The instant as whole milliseconds since 1970-01-01T00:00:00Z, as Belay stores it.
    @inlinable
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// The instant `milliseconds` after 1970-01-01T00:00:00Z.
    @inlinable
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case let .some(value): return value.databaseValue
        }
    }
    @inlinable
    public init?(databaseValue: DatabaseValue) {
        if case .null = databaseValue {
            self = .none
        } else if let value = Wrapped(databaseValue: databaseValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
