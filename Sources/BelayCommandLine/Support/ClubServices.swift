import BelayCore
import Foundation
import BelayAPI
import BelayArguments
import BelayConfig
import BelayDomain
import BelayStorage

/// The domain services a command uses, over one open database and the command's clock,
/// with the policies translated from the configuration. Commands act as
/// `Actor.commandLine` (the operator at the server, with admin rights).
struct ClubServices {
    let configuration: BelayConfiguration
    let domain: DomainServices

    var pool: DatabasePool { domain.pool }
    var users: UserService { domain.users }
    var meetups: MeetupService { domain.meetups }
    var attendance: AttendanceService { domain.attendance }
    var checkIns: CheckInService { domain.checkIns }
    var catalog: CatalogService { domain.catalog }
    var rewards: RewardService { domain.rewards }
    var shares: ShareService { domain.shares }
    var webhooks: WebhookService { domain.webhooks }

    /// The user with `handle`, or a failure that says how to find the right handle.
    func user(_ handle: String) throws -> User {
        do {
            return try users.user(handle: handle)
        } catch let error as DomainError where error.reason == .userNotFound {
            throw CommandLineError.failure("There is no user '\(handle)'. Run `belay users list` to see handles, or `belay users create` to add one.")
        }
    }

    /// The meetup with `id`, or a failure that says how to find the right id.
    func meetup(_ id: Int64) throws -> Meetup {
        do {
            return try meetups.meetup(id: id)
        } catch let error as DomainError where error.reason == .meetupNotFound {
            throw CommandLineError.failure("There is no meetup \(id). Run `belay meetups list --all` to see meetup ids.")
        }
    }

    /// Every page of a paginated list.
    static func all<Item>(_ page: (String?) throws -> Page<Item>) throws -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let next = try page(cursor)
            items += next.items
            cursor = next.nextCursor
        } while cursor != nil
        return items
    }
}

/// `CommandContext.now` as the domain's clock.
struct ContextClock: TimeSource {
    let read: @Sendable () -> Date
    func now() -> Date { read() }
    func monotonicNanoseconds() -> UInt64 { SystemTimeSource.monotonicNanoseconds() }
}

extension CommandContext {
    /// Opens the database (refusing a missing one or pending migrations) and builds the
    /// domain services with this command's clock.
    func services() throws -> ClubServices {
        let configuration = try configuration()
        let settings: DomainSettings
        do {
            settings = try DomainSettings(configuration: configuration)
        } catch let error as ApplicationError {
            throw CommandLineError.failure(error.description)
        }
        let pool = try openDatabase()
        let payloads = APIWebhookPayloads(presentation: Presentation(configuration: configuration), checkIn: settings.checkIn)
        return ClubServices(configuration: configuration,
                            domain: try DomainServices(pool: pool, clock: ContextClock(read: now), settings: settings,
                                                       webhookPayloads: payloads))
    }
}

extension Role: ExpressibleByArgument {}
extension MeetupStatus: ExpressibleByArgument {}
extension AttendanceStatus: ExpressibleByArgument {}
extension MeetupRepeat: ExpressibleByArgument {}
