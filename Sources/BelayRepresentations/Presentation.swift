import BelayCore
import BelayDomain
import BelayPipeline
import BelayRender
import Foundation
import Synchronization

/// The address clients reach the server at. Set from `server.public_base_url`; when that
/// names a loopback host (a development setup), the port is replaced by the one the server
/// actually bound, so `--port 0` still hands out working image URLs.
public final class PublicBaseURL: Sendable {
    private let value: Mutex<String>

    public init(_ url: String) {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        value = Mutex(base)
    }

    /// The URL, without a trailing slash.
    public var url: String { value.withLock { $0 } }

    /// Puts `port` into the URL when its host is a loopback address.
    public func adopt(boundPort port: Int) {
        value.withLock { url in
            guard var components = URLComponents(string: url),
                  let host = components.host, ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) else { return }
            components.port = port
            if let updated = components.string { url = updated }
        }
    }
}

/// What response bodies need beyond the domain values: zones to write times in, and the
/// addresses and names that go into links and share texts.
public struct Presentation: Sendable {
    /// Zones by identifier (meetup times are written in the meetup's own zone).
    public let zones: TimeZoneOffsets
    /// The club's zone: every time not tied to a meetup is written with its offset.
    public let clubZone: TimeZoneOffsets.Zone
    /// The club's name, for share texts.
    public let clubName: String
    /// Where clients reach this server (`https://api.example`); image URLs start with it.
    public let baseURL: PublicBaseURL
    /// The base of the public link put into share texts; the reward id is appended.
    public let shareLinkBaseURL: String
    /// Facebook App ID Instagram Stories needs as `source_application`; empty when not set up.
    public let instagramAppID: String
    /// Facebook App ID for Facebook Stories; empty when not set up.
    public let facebookAppID: String
    /// The story image's file extension (`png` or `jpg`).
    public let storyFileExtension: String
    /// Seconds the app should keep story items on the pasteboard (Instagram's own default is 5 minutes).
    public let pasteboardExpirySeconds: Int
    /// The club's locale (`club.locale`): the language of share-sheet texts (`ko`, `ja`, else English).
    public var clubLocale: String
    /// The font chain's coverage (`fonts`), for listing what a reward's images leave out; nil
    /// when the fonts cannot be opened (the renderer then refuses to start as well).
    public var fontCoverage: FontCoverage?
    /// The Stories background layers (`share.stories_background_*`); nil when Stories
    /// composers get only the two colours under the sticker.
    public var storyBackgrounds: StoryBackgrounds?

    /// The club, its links and App IDs and the story's format come from `config.json`; the
    /// pasteboard expiry is Belay's own.
    public init(clubZone: TimeZone, clubName: String, clubLocale: String, publicBaseURL: PublicBaseURL, shareLinkBaseURL: String,
                instagramAppID: String, facebookAppID: String, storyFileExtension: String,
                pasteboardExpirySeconds: Int = 300, zones: TimeZoneOffsets = TimeZoneOffsets()) {
        self.zones = zones
        self.clubZone = TimeZoneOffsets.Zone(clubZone)
        self.clubName = clubName
        self.clubLocale = clubLocale
        baseURL = publicBaseURL
        self.shareLinkBaseURL = shareLinkBaseURL
        self.instagramAppID = instagramAppID.trimmingCharacters(in: .whitespaces)
        self.facebookAppID = facebookAppID.trimmingCharacters(in: .whitespaces)
        self.storyFileExtension = storyFileExtension
        self.pasteboardExpirySeconds = pasteboardExpirySeconds
    }

    /// The base URL, without a trailing slash.
    public var publicBaseURL: String { baseURL.url }

    /// The base URL followed by `path` (which starts with `/`).
    public func absoluteURL(_ path: String) -> String { baseURL.url + path }
}
