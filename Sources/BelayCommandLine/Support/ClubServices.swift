import BelayCore
import Foundation
import BelayComposition
import BelayArguments
import BelayConfig
import BelayDomain
import BelayRepresentations

/// The domain services a command uses, over one open database and the command's clock,
/// with the policies translated from the configuration. Commands act as
/// `Actor.commandLine` (the operator at the server, with admin rights).
struct ClubServices {
    let configuration: BelayConfiguration
    let domain: DomainServices
    /// Zones, names and links for showing entities in their API shapes (`--json`).
    let presentation: Presentation

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

    /// `meetup` in its one JSON shape, with its check-in window.
    func body(_ meetup: Meetup) -> MeetupBody {
        MeetupBody(meetup: meetup, window: meetups.checkInWindow(of: meetup), presentation: presentation)
    }

    /// `reward` in its one JSON shape.
    func body(_ reward: Reward) -> RewardBody {
        RewardBody(reward: reward, presentation: presentation)
    }

    /// `attendance` in its one JSON shape, with the member's handle and name as a host's
    /// attendee list shows them.
    func body(_ attendance: Attendance, of user: User) -> AttendeeBody {
        AttendeeBody(attendee: Attendee(attendance: attendance, handle: user.handle, displayName: user.displayName),
                     presentation: presentation)
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
        let presentation = Presentation(configuration: configuration)
        do {
            return ClubServices(configuration: configuration,
                                domain: try DomainServices(configuration: configuration, presentation: presentation,
                                                           clock: ContextClock(read: now)) { try openDatabase().store },
                                presentation: presentation)
        } catch let error as ApplicationError {
            throw CommandLineError.failure(error.description)
        }
    }
}

extension Role: ExpressibleByArgument {}
extension MeetupStatus: ExpressibleByArgument {}
extension AttendanceStatus: ExpressibleByArgument {}
extension MeetupRepeat: ExpressibleByArgument {}
