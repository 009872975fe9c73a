import BelayStorage
import Foundation

/// The one place the subscribers of changes are registered (`DomainServices`): services tell
/// it what changed, and it tells each subscriber in the order registered.
final class ChangeFeed: Sendable {
    let subscribers: [any ChangeSubscriber]

    init(subscribers: [any ChangeSubscriber]) {
        self.subscribers = subscribers
    }

    func changed(_ event: ChangeEvent, now: Date, in db: Database) throws {
        for subscriber in subscribers { try subscriber.changed(event, now: now, in: db) }
    }
}
