import Dispatch

/// Splits work on disjoint ranges across threads; with `parallelism` 1 it runs inline.
enum Parallel {
    /// Calls `body` once per piece of `0..<count`, cut into at most `parallelism` contiguous
    /// pieces of at least `minimumPiece` items, on as many threads.
    static func forEachPiece(
        of count: Int, parallelism: Int, minimumPiece: Int = 1,
        _ body: (_ piece: Int, _ range: Range<Int>) -> Void
    ) {
        let pieces = max(1, min(parallelism, count / max(1, minimumPiece)))
        if pieces == 1 {
            body(0, 0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: pieces) { piece in
                let start = count * piece / pieces
                let end = count * (piece + 1) / pieces
                box.value(piece, start..<end)
            }
        }
    }
}

/// Carries a value that is only ever used on disjoint data from several threads (pointers into
/// separate rows of one buffer, closures that write to separate pieces).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
