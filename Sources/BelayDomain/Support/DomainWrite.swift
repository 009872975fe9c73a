import BelayStorage

/// One write transaction of a domain service, made once and run either on the calling
/// thread (`perform()`) or handed to the database's writer (`perform(then:)`), so that a
/// service offers both without writing its rules twice.
struct DomainWrite<T: Sendable>: Sendable {
    let pool: any DatabaseStore
    let body: @Sendable (Database) throws -> T

    /// Runs the transaction and waits for its commit.
    /// - Throws: what `body` throws; storage errors as `DomainError.storageFailure`.
    func perform() throws -> T {
        try domainCall { try pool.write(body) }
    }

    /// Queues the transaction and returns at once; `completion` gets the result (or the same
    /// errors as `perform()`) after the commit, on the writer thread: keep it short.
    func perform(then completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        pool.write(body, then: { completion($0.mapError(domainError)) })
    }
}
