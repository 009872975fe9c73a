/// The answer to a statement sent with `Database.queryLater`: on an engine that pipelines
/// statements it arrives with the answer to a later statement that waits for one, or with the
/// write's commit at the latest; elsewhere it is there at once.
///
/// Read it with `get()`; inside the write that sent the statement, that waits for the server
/// (one round trip for everything sent so far), after the commit it never does.
public final class DatabaseAnswer<Value> {
    private var result: Result<Value, any Error>?
    /// Reads answers from the connection until this one is there (nil once it is).
    private var awaitAnswer: (() throws -> Void)?
    /// Told of the answer when it arrives.
    private var observers: [(Result<Value, any Error>) -> Void] = []

    /// An answer still to come; `awaitAnswer` reads the connection's answers until it is here.
    public init(awaiting awaitAnswer: @escaping () throws -> Void) {
        self.awaitAnswer = awaitAnswer
    }

    /// An answer already here.
    public init(_ result: Result<Value, any Error>) {
        self.result = result
    }

    /// Called by the connection when the answer arrives.
    public func answer(_ result: Result<Value, any Error>) {
        self.result = result
        awaitAnswer = nil
        let told = observers
        observers = []
        told.forEach { $0(result) }
    }

    /// Runs `body` with the answer when it arrives (at once if it is here), on the write's
    /// thread and before the write commits: it may note what to do after the commit
    /// (`notifyAtCommit`), and must not run statements.
    public func whenAnswered(_ body: @escaping (Result<Value, any Error>) -> Void) {
        if let result { body(result) } else { observers.append(body) }
    }

    /// The answer transformed by `transform` once it is here.
    public func map<New>(_ transform: @escaping (Value) throws -> New) -> DatabaseAnswer<New> {
        if let result { return DatabaseAnswer<New>(Result { try transform(result.get()) }) }
        let mapped = DatabaseAnswer<New>(awaiting: { [self] in _ = try get() })
        whenAnswered { result in mapped.answer(Result { try transform(result.get()) }) }
        return mapped
    }

    /// The rows (or what `read` made of them), waiting for the server if they are not here yet.
    /// - Throws: the statement's error (a `DatabaseError`, or what the statement's caller mapped
    ///   it to), or the error that stopped the pipeline before it ran.
    public func get() throws -> Value {
        if result == nil, let awaitAnswer {
            try awaitAnswer()
        }
        guard let result else {
            throw DatabaseError.misuse("A statement's answer was read before it was sent")
        }
        return try result.get()
    }
}
