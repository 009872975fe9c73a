/// The fixed list of tags a meetup may carry (the README lists them): a fixed list so that a
/// search by tag finds every meetup meant, in every language the app shows them in.
public enum MeetupTag: String, Sendable, CaseIterable, Codable {
    case beginnerFriendly = "beginner_friendly"
    case coaching
    case women
    case outdoorTrip = "outdoor_trip"
    case training
    case social
    case projecting
    case youth
    case lgbtq
    case english
    case competition

    /// At most this many on one meetup.
    public static let maximumPerMeetup = 5

    /// The stored form: `,women,coaching,` (empty for none), so that one `LIKE '%,women,%'` finds one.
    static func stored(_ tags: [MeetupTag]) -> String {
        tags.isEmpty ? "" : "," + tags.map(\.rawValue).joined(separator: ",") + ","
    }

    /// Reads the stored form.
    /// - Throws: `DomainError` naming a tag this build does not know.
    static func read(stored text: String, meetupID: Int64) throws -> [MeetupTag] {
        try text.split(separator: ",").map { name in
            guard let tag = MeetupTag(rawValue: String(name)) else {
                throw DomainError(.storageFailure, "Meetup \(meetupID) carries the tag \"\(name)\", which this build of Belay does not know")
            }
            return tag
        }
    }
}
