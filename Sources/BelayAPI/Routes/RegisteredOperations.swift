import BelayCore

/// The operations routes were registered with, in registration order: what the OpenAPI
/// document is made of. Filled while the router is set up (one thread), read once after.
final class RegisteredOperations {
    private(set) var operations: [OpenAPIOperation] = []

    func append(_ operation: OpenAPIOperation) {
        operations.append(operation)
    }

    /// The OpenAPI document of the registered operations and of `more` (the routes that serve
    /// the document, registered once it is made), with `serverURL` as its one server.
    func document(adding more: [OpenAPIOperation] = [], serverURL: String) -> JSONValue {
        OpenAPIDocument.document(of: operations + more, serverURL: serverURL)
    }
}
