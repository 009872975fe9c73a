import BelayCore
import BelayDomain
import Foundation

/// A recorded share event.
public struct ShareEventBody: JSONRepresentable {
    public let event: ShareEvent
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", event.id)
            json.member("reward_id", event.rewardID)
            json.member("user_id", event.memberID)
            json.member("meetup_id", event.meetupID)
            json.member("target", event.target.rawValue)
            json.member("reported_target", event.reportedTarget)
            json.member("activity_type", event.activityType)
            json.member("completed", event.completed)
            json.member("error", event.error)
            json.member("client_event_id", event.clientEventID)
            json.member("occurred_at", event.occurredAt, offset: presentation.clubZone)
        }
    }

    public init(event: ShareEvent, presentation: Presentation) {
        self.event = event
        self.presentation = presentation
    }
}

/// Share counts of one meetup, target and day, or summed per one of them (`?by=`); what is
/// summed over is null.
public struct ShareStatisticBody: JSONRepresentable {
    public let statistic: ShareStatisticGroup

    public init(_ statistic: ShareStatisticGroup) { self.statistic = statistic }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("meetup_id", statistic.meetupID)
            json.member("meetup_title", statistic.meetupTitle)
            json.member("target", statistic.target?.rawValue)
            json.member("day", statistic.day)
            json.member("events", statistic.events)
            json.member("completed", statistic.completed)
            json.member("failed", statistic.failed)
            json.member("dismissed", statistic.dismissed)
        }
    }
}
