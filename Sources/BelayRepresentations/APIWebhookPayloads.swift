import BelayCore
import BelayDomain
import Foundation

/// The `data` of webhook payloads: the same bodies the API answers with for a meetup, an
/// attendance and a reward, so a receiver parses one representation.
public struct APIWebhookPayloads: WebhookPayloadEncoding {
    let presentation: Presentation
    let checkIn: CheckInPolicy

    public init(presentation: Presentation, checkIn: CheckInPolicy) {
        self.presentation = presentation
        self.checkIn = checkIn
    }

    public func data(meetup: Meetup) -> [UInt8] {
        var json = JSONOutput()
        MeetupBody(meetup: meetup, window: checkIn.window(start: meetup.startsAt, end: meetup.endsAt), presentation: presentation)
            .write(to: &json)
        return json.bytes
    }

    public func data(attendance: Attendance) -> [UInt8] {
        var json = JSONOutput()
        AttendanceBody(attendance: attendance, presentation: presentation).write(to: &json)
        return json.bytes
    }

    public func data(reward: Reward) -> [UInt8] {
        var json = JSONOutput()
        RewardBody(reward: reward, presentation: presentation).write(to: &json)
        return json.bytes
    }

    /// Grades are shown in the default scales (V, YDS): a receiver reads `grade.text` and
    /// `grade.scale` for the grade as logged.
    public func data(ticks: [Tick], memberID: Int64) -> [UInt8] {
        var json = JSONOutput()
        json.object { json in
            json.member("user_id", memberID)
            json.key("ticks")
            json.array(ticks) { json, tick in TickBody(tick: tick, preferences: LogbookPreferences()).write(to: &json) }
        }
        return json.bytes
    }
}
