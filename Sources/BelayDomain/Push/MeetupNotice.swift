/// The notices about one meetup to the members going (and, for a change, waiting), each with its kind.
enum MeetupNotice: Sendable {
    /// It starts soon.
    case reminder
    /// Check-in has opened.
    case checkInOpen
    /// Its time or place changed.
    case changed
    /// It was cancelled.
    case cancelled

    var kind: NoticeKind {
        switch self {
        case .reminder: .meetupReminder
        case .checkInOpen: .checkInOpen
        case .changed: .meetupChanged
        case .cancelled: .meetupCancelled
        }
    }
}
