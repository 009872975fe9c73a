import BelayStorage
import Foundation

/// Hears every `ChangeEvent`, inside the transaction that made the change; what it writes
/// commits or rolls back with the change.
protocol ChangeSubscriber: Sendable {
    func changed(_ event: ChangeEvent, now: Date, in db: Database) throws
}
