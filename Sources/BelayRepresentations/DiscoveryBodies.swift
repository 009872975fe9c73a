import BelayCore
import BelayDomain
import Foundation

/// One thing a member follows, as `GET /v1/me/follows` lists it.
public struct FollowBody: JSONRepresentable {
    public let follow: Follow
    public let presentation: Presentation

    public init(follow: Follow, presentation: Presentation) {
        self.follow = follow
        self.presentation = presentation
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("type", follow.subject.type)
            json.member("id", follow.subject.id)
            json.member("name", follow.name)
            json.member("created_at", follow.createdAt, offset: presentation.clubZone)
        }
    }
}

/// One meetup of `GET /v1/me/feed`: the meetup, and why it is there.
public struct FeedItemBody: JSONRepresentable {
    public let meetup: MeetupBody
    public let reason: FeedReason

    public init(meetup: MeetupBody, reason: FeedReason) {
        self.meetup = meetup
        self.reason = reason
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("reason", reason.rawValue)
            json.key("meetup")
            json.value(meetup)
        }
    }
}
