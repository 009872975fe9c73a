import Foundation

/// Why a schema could not be read for comparison.
public struct SchemaShapeError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
