import BelayCore
import BelayDomain
import Foundation

/// Everything the app needs to share a reward, per target.
///
/// - Instagram Stories: the URL to open (`instagram-stories://share?source_application=<App ID>`),
///   the pasteboard items keyed as Instagram reads them (image URLs for the app to download
///   and put on the pasteboard as PNG data, and the gradient colours), how long the items
///   should live on the pasteboard, and the Android intent with its extras. The composer
///   draws the sticker layer itself, so the background layer is the Stories background (the
///   gradient without the sticker, `share.stories_background`), or only the two colours;
///   never the composite story, which would show the hold twice.
/// - Facebook Stories: the same with Facebook's keys, which also carry the App ID.
/// - Android: Meta reads only `content://` URIs to local files, so the app downloads each
///   image and shares it through its own `FileProvider`; `android.files` names each part,
///   its URL and its MIME type.
/// - Which images are ready (`ready_images`): the sticker is stored first and the reward can
///   be shared to Stories at once; the composite story follows moments later (`images.story`
///   is null and `retry_after_seconds` set until then).
/// - The share sheet: a short text in the club's language, the composite story, and the link
///   to the reward's public page once its member published it (`page_published`); until then
///   the member is given `publish_url`, where a POST publishes it.
///
/// A target that cannot work says so (`available: false`, a `reason` code and a `detail`)
/// instead of handing out a link that fails: a missing App ID in `config.json`, an image
/// still rendering, a failed render, a revoked reward.
public struct SharePayloadBody: JSONRepresentable {
    public let reward: Reward
    public let presentation: Presentation
    /// The slug of the reward's public page (`/s/{slug}`); nil while its member has not
    /// published one (asking for the payload never publishes).
    public let sharePageSlug: String?
    /// Whether the caller may publish the page (they earned the reward).
    public let callerMayPublish: Bool

    /// Why no target that needs the images can be used now, if so.
    private var imageProblem: (reason: String, detail: String)? {
        if reward.isRevoked {
            return ("reward_revoked", "This reward was revoked when its check-in was undone; it cannot be shared.")
        }
        guard reward.images != nil else {
            if reward.renderStatus == .failed {
                return ("render_failed", "The images of this reward could not be rendered; the server retries failed renders in its next backfill.")
            }
            return ("render_pending", "The images are still being rendered; ask again in \(renderRetryAfterSeconds) seconds.")
        }
        return nil
    }

    /// True while the sticker is stored and the story still to follow (moments, usually).
    private var storyPending: Bool { !reward.isRevoked && reward.images != nil && reward.images?.storyHash == nil }

    public func write(to json: inout JSONOutput) {
        let images = reward.images
        let sticker = images.flatMap { ImageLinkBody(rewardID: reward.id, kind: .sticker, images: $0, presentation: presentation) }
        let story = images.flatMap { ImageLinkBody(rewardID: reward.id, kind: .story, images: $0, presentation: presentation) }
        let storiesBackground = images == nil ? nil : storiesBackgroundLink
        let problem = imageProblem
        let top = reward.background.topColor
        let bottom = reward.background.bottomColor

        json.object { json in
            json.member("reward_id", reward.id)
            json.member("render_status", reward.renderStatus.rawValue)
            json.member("retry_after_seconds", problem?.reason == "render_pending" || storyPending ? renderRetryAfterSeconds : nil)
            json.key("ready_images")
            json.array([sticker.map { _ in "sticker" }, story.map { _ in "story" }].compactMap { $0 }) { json, kind in json.string(kind) }
            json.key("images")
            if let sticker {
                json.object { json in
                    json.key("sticker"); sticker.write(to: &json)
                    json.key("story")
                    if let story { story.write(to: &json) } else { json.null() }
                    if let storiesBackground {
                        json.key("stories_background"); storiesBackground.write(to: &json)
                    }
                }
            } else {
                json.null()
            }
            json.member("background_top_color", top)
            json.member("background_bottom_color", bottom)

            json.key("instagram_stories")
            writeStoriesTarget(
                to: &json, appID: presentation.instagramAppID, appIDSetting: "share.instagram_app_id", targetName: "Instagram Stories",
                problem: problem, sticker: sticker?.url, background: storiesBackground?.url, top: top, bottom: bottom,
                urlScheme: "instagram-stories://share", pasteboardPrefix: "com.instagram.sharedSticker.",
                pasteboardAppIDKey: nil, androidAction: "com.instagram.share.ADD_TO_STORY", androidPackage: "com.instagram.android",
                androidAppIDExtra: "source_application")

            json.key("facebook_stories")
            writeStoriesTarget(
                to: &json, appID: presentation.facebookAppID, appIDSetting: "share.facebook_app_id", targetName: "Facebook Stories",
                problem: problem, sticker: sticker?.url, background: storiesBackground?.url, top: top, bottom: bottom,
                urlScheme: "facebook-stories://share", pasteboardPrefix: "com.facebook.sharedSticker.",
                pasteboardAppIDKey: "com.facebook.sharedSticker.appID", androidAction: "com.facebook.stories.ADD_TO_STORY",
                androidPackage: "com.facebook.katana", androidAppIDExtra: "com.facebook.platform.extra.APPLICATION_ID")

            json.member("share_sheet") { json in
                let revoked = reward.isRevoked
                json.member("available", !revoked)
                json.member("reason", revoked ? "reward_revoked" : nil)
                json.member("detail", revoked ? imageProblem?.detail
                    : story == nil ? "The story image is still being rendered: share the text and link now, or ask again in \(renderRetryAfterSeconds) seconds for the image." : nil)
                json.member("text", shareText)
                json.member("link", shareLink)
                json.member("page_published", shareLink != nil)
                json.member("publish_url", shareLink == nil && callerMayPublish && !revoked
                    ? presentation.absoluteURL("/v1/rewards/\(reward.id)/share-page") : nil)
                json.member("image_url", problem == nil ? story?.url : nil)
            }
        }
    }

    private func writeStoriesTarget(
        to json: inout JSONOutput, appID: String, appIDSetting: String, targetName: String,
        problem: (reason: String, detail: String)?, sticker: String?, background: String?, top: String, bottom: String,
        urlScheme: String, pasteboardPrefix: String, pasteboardAppIDKey: String?,
        androidAction: String, androidPackage: String, androidAppIDExtra: String
    ) {
        var unavailable = problem
        if unavailable == nil && appID.isEmpty {
            unavailable = (appIDSetting.replacingOccurrences(of: "share.", with: "") + "_missing",
                           "\(targetName) needs the club's Facebook App ID, and none is configured; an admin sets `\(appIDSetting)` in config.json.")
        }
        json.object { json in
            guard let sticker, unavailable == nil else {
                json.member("available", false)
                json.member("reason", unavailable?.reason)
                json.member("detail", unavailable?.detail)
                json.member("url", nil as String?)
                json.member("source_application", nil as String?)
                json.key("pasteboard"); json.null()
                json.member("pasteboard_expiration_seconds", presentation.pasteboardExpirySeconds)
                json.key("android"); json.null()
                return
            }
            json.member("available", true)
            json.member("reason", nil as String?)
            json.member("detail", nil as String?)
            json.member("url", urlScheme + "?source_application=" + Self.queryEscaped(appID))
            json.member("source_application", appID)
            json.member("pasteboard") { json in
                json.key(dynamic: pasteboardPrefix + "stickerImage"); json.string(sticker)
                if let background {
                    json.key(dynamic: pasteboardPrefix + "backgroundImage"); json.string(background)
                }
                json.key(dynamic: pasteboardPrefix + "backgroundTopColor"); json.string(top)
                json.key(dynamic: pasteboardPrefix + "backgroundBottomColor"); json.string(bottom)
                if let pasteboardAppIDKey {
                    json.key(dynamic: pasteboardAppIDKey); json.string(appID)
                }
            }
            json.member("pasteboard_expiration_seconds", presentation.pasteboardExpirySeconds)
            json.member("android") { json in
                json.member("action", androidAction)
                json.member("package", androidPackage)
                json.member("background_asset_uri", background)
                json.member("mime_type", background == nil ? "image/png" : "image/*")
                json.member("content_uri_provider", "FileProvider")
                json.member("note", "Meta reads only content:// URIs to local files: download each file below and share it through the app's own FileProvider (grant read permission to the target package).")
                let files = [("interactive_asset_uri", sticker)] + (background.map { [("background_asset_uri", $0)] } ?? [])
                json.key("files")
                json.array(files) { json, file in
                    json.object { json in
                        json.member("part", file.0)
                        json.member("url", file.1)
                        json.member("mime_type", "image/png")
                    }
                }
                json.member("extras") { json in
                    json.key(dynamic: androidAppIDExtra); json.string(appID)
                    json.member("interactive_asset_uri", sticker)
                    json.member("top_background_color", top)
                    json.member("bottom_background_color", bottom)
                }
            }
        }
    }

    /// The Stories background layer of this reward's colours, when `share.stories_background`
    /// is `image`.
    private var storiesBackgroundLink: StoriesBackgroundLinkBody? {
        guard let backgrounds = presentation.storyBackgrounds,
              let digest = backgrounds.digest(topColor: reward.background.topColor, bottomColor: reward.background.bottomColor)
        else { return nil }
        return StoriesBackgroundLinkBody(
            url: presentation.absoluteURL(StoriesBackgroundLinkBody.path(rewardID: reward.id, digest: digest)), digest: digest,
            width: backgrounds.width, height: backgrounds.height)
    }

    /// The share-sheet text in the member's language when they chose one (`PATCH /v1/me`
    /// `locale`), else the club's (`club.locale`): Korean, Japanese, else English, e.g. "I earned the Crimson Jug hold at Seoul Forest Gym (2026-11-29) — Belay
    /// Climbing Club".
    public var shareText: String {
        let zone = presentation.zones.zone(reward.meetupTimeZone)
        let day = RFC3339.string(from: reward.meetupStartsAt, utcOffsetSeconds: zone.secondsFromGMT(for: reward.meetupStartsAt)).prefix(10)
        return Self.shareText(hold: reward.hold.name, place: reward.placeName, day: String(day), club: presentation.clubName,
                              locale: memberLocale ?? presentation.clubLocale)
    }

    /// The share-sheet sentence in `locale`'s language: Korean, Japanese, otherwise English.
    public static func shareText(hold: String, place: String, day: String, club: String, locale: String) -> String {
        switch Locale(identifier: locale).language.languageCode?.identifier {
        case "ko": return "\(place)에서 \(hold) 홀드를 받았어요 (\(day)) — \(club)"
        case "ja": return "\(place)で\(hold)ホールドをゲットしました（\(day)） — \(club)"
        default: return "I earned the \(hold) hold at \(place) (\(day)) — \(club)"
        }
    }

    /// The link to the reward's public page: `club.share_link_base_url` (by default this
    /// server's `/s/`) and the page's slug; nil without a page.
    public var shareLink: String? {
        guard let sharePageSlug, !reward.isRevoked else { return nil }
        return Self.pageLink(slug: sharePageSlug, presentation: presentation)
    }

    /// The public address of the page `slug`.
    public static func pageLink(slug: String, presentation: Presentation) -> String {
        var base = presentation.shareLinkBaseURL.isEmpty ? presentation.absoluteURL("/s/") : presentation.shareLinkBaseURL
        if !base.hasSuffix("/") { base += "/" }
        return base + slug
    }

    public static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// The language the member chose (`ko`, `ja`, `en`); nil for the club's.
    public var memberLocale: String?

    public init(reward: Reward, presentation: Presentation, sharePageSlug: String?, callerMayPublish: Bool = false,
                memberLocale: String? = nil) {
        self.memberLocale = memberLocale
        self.reward = reward
        self.presentation = presentation
        self.sharePageSlug = sharePageSlug
        self.callerMayPublish = callerMayPublish
    }
}

/// A reward's published page (`POST /v1/rewards/{id}/share-page`): its address, and whether
/// it shows the member's name (their share preference).
public struct SharePageBody: JSONRepresentable {
    public let rewardID: Int64
    public let slug: String
    public let showsName: Bool
    public let presentation: Presentation

    public init(rewardID: Int64, slug: String, showsName: Bool, presentation: Presentation) {
        self.rewardID = rewardID
        self.slug = slug
        self.showsName = showsName
        self.presentation = presentation
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("reward_id", rewardID)
            json.member("url", SharePayloadBody.pageLink(slug: slug, presentation: presentation))
            json.member("shows_name", showsName)
        }
    }
}

/// The Stories background of a reward: its colours' gradient without the sticker.
public struct StoriesBackgroundLinkBody: JSONRepresentable {
    public let url: String
    public let digest: String
    public let width: Int
    public let height: Int

    /// `/v1/rewards/{id}/stories-background/{digest}.png`.
    public static func path(rewardID: Int64, digest: String) -> String {
        "/v1/rewards/\(rewardID)/stories-background/\(digest).png"
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("url", url)
            json.member("hash", digest)
            json.member("etag", "\"\(digest)\"")
            json.member("content_type", "image/png")
            json.member("width", width)
            json.member("height", height)
        }
    }

    public init(url: String, digest: String, width: Int, height: Int) {
        self.url = url
        self.digest = digest
        self.width = width
        self.height = height
    }
}
