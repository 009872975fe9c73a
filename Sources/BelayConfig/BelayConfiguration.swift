import Foundation

/// Belay's settings, as read from `config.json`, `BELAY_*` environment variables and built-in
/// defaults (see `ConfigurationLoader` for the rules).
///
/// The shape mirrors the JSON: each section is a nested struct and each property is the
/// snake_case key in camelCase (`server.max_connections_per_ip` → `server.maxConnectionsPerIP`).
/// Each key's default, check, meaning and the property it fills are declared once, in
/// `SettingDeclaration.all`, and a load fills the properties by walking those declarations.
/// The blank values the properties start from (`""`, `0`, the first case) are never the
/// setting's default: a test shows that every property is filled by exactly one declaration.
/// A loaded configuration is already validated and resolved: every path is absolute,
/// `databasePath` is never empty and `server.threads` is at least 1.
///
/// Lower modules never see this type; `BelayComposition`, the composition root, translates it
/// into their settings structs.
public struct BelayConfiguration: Sendable, Equatable {
    /// `server`: the HTTP listener.
    public struct Server: Sendable, Equatable {
        /// Address to listen on (`127.0.0.1` keeps the server private to the machine).
        public var host: String = ""
        /// TCP port; 0 asks the system for any free port.
        public var port: Int = 0
        /// Worker threads answering requests; 0 in the file means one per core.
        public var threads: Int = 0
        /// Seconds an idle connection is kept open.
        public var connectionTimeoutSeconds: Int = 0
        /// Seconds a request's line and headers may take to arrive; a connection still sending
        /// them after this is closed (slow clients cannot hold connections for ever).
        public var headerTimeoutSeconds: Int = 0
        /// Seconds `belay serve` lets requests in flight finish after SIGTERM; a request still
        /// waiting for its write then is answered 503 (the write itself still commits).
        public var shutdownGraceSeconds: Int = 0
        /// Connections served at once.
        public var maxConnections: Int = 0
        /// Connections served at once from one client address.
        public var maxConnectionsPerIP: Int = 0
        /// Largest request body accepted, in bytes.
        public var maxBodyBytes: Int = 0
        /// The address clients reach the server at; image URLs in share payloads start with it.
        public var publicBaseURL: String = ""
        /// Numeric addresses of reverse proxies in front (nginx); only their `Forwarded` /
        /// `X-Forwarded-For` headers are believed. Empty: none.
        public var trustedProxies: [String] = []
    }

    /// `fonts`: font files used to draw text on stickers, tried in fallback order.
    public struct Fonts: Sendable, Equatable {
        public var bold: String = ""
        public var regular: String = ""
        /// `fonts.fallbacks`: font files tried after `regular`/`bold` and before `emoji`, in
        /// order, each the regular face (a `…Bold…` file beside it sets bold labels).
        public var fallbacks: [String] = []
        public var emoji: String = ""
        public var lastResort: String = ""
    }

    /// `club`: who the club is and where it lives.
    public struct Club: Sendable, Equatable {
        public var name: String = ""
        /// IANA time zone identifier (e.g. `Asia/Seoul`): the default zone of new meetups and
        /// the zone `backfill.daily_at` is read in.
        public var timeZone: String = ""
        /// Locale identifier (e.g. `ko_KR`) for dates drawn on stickers.
        public var locale: String = ""
        /// Base of the link put in share-sheet text, followed by the share page's slug; empty
        /// for Belay's own share pages, `<server.public_base_url>/s/`.
        public var shareLinkBaseURL: String = ""
        /// `club.logo`: a PNG of the club's mark, drawn beside its name on stories and share
        /// cards; empty for a monogram of the name's first letter.
        public var logo: String = ""
        /// Where members write to the club (to appeal a moderator's decision); empty: not given.
        public var contactEmail: String = ""

        /// The club's time zone (validated when loading, so this always exists).
        public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)! }
    }

    /// `check_in`: when and how members check in.
    public struct CheckIn: Sendable, Equatable {
        /// Minutes before a meetup's start that check-in opens (0 or more).
        public var opensMinutesBeforeStart: Int = 0
        /// Minutes after a meetup's end that check-in closes (0 or more).
        public var closesMinutesAfterEnd: Int = 0
        /// Seconds each rotating check-in code is valid (30–60).
        public var codeStepSeconds: Int = 0
        /// Wrong codes a member may enter for one meetup before being refused.
        public var maxWrongAttempts: Int = 0
        /// Days check-in idempotency keys and wrong-code counters are kept before the server
        /// prunes them (1 or more).
        public var retentionDays: Int = 0
    }

    /// `rewards`: which hold a check-in earns.
    public struct Rewards: Sendable, Equatable {
        /// The hold id given for a member's Nth check-in, keyed by N.
        public var milestones: [Int: String] = [:]
        /// The hold id given for the check-in that first makes a member's weekly streak N
        /// weeks long, keyed by N (empty: no streak milestones).
        public var streakMilestones: [Int: String] = [:]
        /// Relative weight of each rarity in the ordinary weighted pick.
        public var rarityWeights: [String: Int] = [:]
        /// Where the badge signing keys and member secret are; empty: `data_directory/badge-keys`,
        /// made at the first start. Set, it must hold them already (nodes share one set).
        public var badgeKeysDirectory: String = ""
    }

    /// `database_durability`: what a commit guarantees when it returns.
    public enum Durability: String, Sendable, Equatable, CaseIterable {
        /// fsync on every commit (group commits share one): nothing acknowledged is lost.
        case full
        /// fsync at checkpoints only: faster on slow disks, but the last acknowledged commits
        /// can be lost on power loss or a kernel crash.
        case normal
    }

    /// `database`: which engine holds the data. `url` empty (or a file path) keeps SQLite
    /// at `database_path`; a `postgres://` or `postgresql://` URL (a libpq connection string,
    /// TLS through `sslmode`) puts it on a PostgreSQL server that several nodes can share.
    public struct DatabaseServer: Sendable, Equatable {
        /// The PostgreSQL URL; empty for SQLite.
        public var url: String = ""
        /// Connections one process keeps open to the server at most.
        public var maxConnections: Int = 0
        /// Connections (each with its thread) one process writes on, besides the reads'.
        public var writerConnections: Int = 0
        /// The longest one statement may run on the server, in milliseconds (0: no limit).
        public var statementTimeoutMilliseconds: Int = 0
        /// `s3://bucket/prefix/` for `belay serve`'s scheduled backups of a SQLite club; empty: none.
        public var backupURL: String = ""
        /// Hours between scheduled backups; 0: none.
        public var backupEveryHours: Int = 0
        /// Scheduled backups kept; older ones are deleted.
        public var backupKeep: Int = 0

        /// True when the data is on a PostgreSQL server.
        public var isPostgreSQL: Bool { !url.isEmpty }

        /// True for a `postgres://` or `postgresql://` URL.
        public static func isServerURL(_ text: String) -> Bool {
            let lowered = text.lowercased()
            return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
        }
    }

    /// The image format of the story background.
    public enum StoryFormat: String, Sendable, Equatable, CaseIterable {
        case png, jpeg
    }

    /// `render`: image rendering.
    public struct Render: Sendable, Equatable {
        public var workers: Int = 0
        public var storyFormat: StoryFormat = .png
        /// JPEG quality 1–100 when `storyFormat` is `jpeg`.
        public var jpegQuality: Int = 0
        /// Largest width or height of any image read or written, in pixels.
        public var maxImageSide: Int = 0
        /// Largest decoded image accepted, in bytes.
        public var maxDecodedBytes: Int = 0
        /// Attempts at a render job before it is left as failed.
        public var maxAttempts: Int = 0
        /// First retry delay; each further retry doubles it.
        public var retryBaseSeconds: Int = 0
        /// `render.achievement_line`: whether stories and share cards lead with what the day
        /// meant ("12th check-in · 5-week streak").
        public var achievementLine: Bool = false
    }

    /// A wall-clock time of day, `HH:MM`.
    public struct TimeOfDay: Sendable, Equatable, CustomStringConvertible {
        public var hour: Int = 0
        public var minute: Int = 0

        public init(hour: Int, minute: Int) {
            self.hour = hour
            self.minute = minute
        }

        /// Parses `HH:MM` (00:00–23:59); nil for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
            else { return nil }
            self.init(hour: hour, minute: minute)
        }

        public var description: String {
            (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
        }
    }

    /// `backfill`: the scheduled reward backfill run by the server.
    public struct Backfill: Sendable, Equatable {
        /// Time of day (in the club's zone) for a daily run; nil (`""` in the file) for none.
        public var dailyAt: TimeOfDay?
        /// Minutes between runs; 0 for no periodic run.
        public var everyMinutes: Int = 0
        /// Jobs processed at once.
        public var jobs: Int = 0
        /// Seconds a worker holds a job before another may take it over.
        public var leaseSeconds: Int = 0
    }

    /// `webhooks`: delivery of signed webhooks (Standard Webhooks 1.0).
    public struct Webhooks: Sendable, Equatable {
        /// Threads delivering at once (each endpoint still gets one delivery at a time, each
        /// subject's events in order).
        public var workers: Int = 0
        /// Seconds one attempt may take, connecting included.
        public var timeoutSeconds: Int = 0
        /// Attempts at one delivery before it is given up.
        public var maxAttempts: Int = 0
        /// First retry delay; each further retry waits three times longer.
        public var retryBaseSeconds: Int = 0
        /// Hours an endpoint may fail without a single success before it is disabled.
        public var disableAfterHours: Int = 0
        /// Milliseconds between looks at the queue for events written by other processes.
        public var pollMilliseconds: Int = 0
        /// 1 lets webhooks reach loopback, link-local and private addresses; 0 refuses them.
        public var allowPrivateAddresses: Bool = false
        /// Days delivered and given-up deliveries (and their events) are kept.
        public var retentionDays: Int = 0
    }

    /// `calendar`: the members' calendar feeds (RFC 5545).
    public struct Calendar: Sendable, Equatable {
        /// Minutes before a meetup's start its reminder goes off; 0 for no reminder.
        public var alarmMinutesBefore: Int = 0
    }

    /// `meetups`: who creates meetups, and their life-cycle in `belay serve`.
    /// `logbook`: the story's climbing line and gym rankings.
    public struct Logbook: Sendable, Equatable {
        /// Ticks logged after a reward's story was drawn redraw it at most this often.
        public var storyRefreshSeconds: Int = 0
        /// A gym's ranking sums each member's this many hardest sends…
        public var rankingBest: Int = 0
        /// …over this many days.
        public var rankingDays: Int = 0
        /// Days before a problem's expected removal that a member who tried it and has not
        /// sent it is told (0: never).
        public var projectEndingDays: Int = 0
    }

    public struct Meetups: Sendable, Equatable {
        /// `members` (any member creates and hosts their own meetups) or `hosts` (only hosts and admins).
        public var createdBy: String = ""
        /// Seconds between looks for meetups whose check-in window closed (they become
        /// `completed`); 0 turns it off.
        public var completeEverySeconds: Int = 0
    }

    /// `waitlist`: what happens to a freed place.
    public struct Waitlist: Sendable, Equatable {
        /// Minutes the first waitlisted member has to claim a freed place; 0 promotes at once.
        public var claimMinutes: Int = 0
        /// Minutes before the start from which no offers are made (places are given at once).
        public var cutoffMinutes: Int = 0
    }

    /// `accounts`: members' sign-up and sessions.
    public struct Accounts: Sendable, Equatable {
        /// `open` (a first sign-in creates the account), `invite` (it needs an invite code) or
        /// `closed` (only accounts an admin made may sign in).
        public var signUp: String = ""
        public var accessTokenMinutes: Int = 0
        /// Days a session lasts without its refresh token being used.
        public var refreshTokenDays: Int = 0
        /// Minutes an emailed code and link work.
        public var emailCodeMinutes: Int = 0
        /// Wrong codes that void an emailed code.
        public var maxWrongEmailCodes: Int = 0
        /// How old a sign-in may be for a member to delete their account.
        public var recentSignInMinutes: Int = 0
        /// The version of the terms every member must accept before changing anything; empty: none.
        public var termsVersion: String = ""
        /// Where members read the terms.
        public var termsURL: String = ""
    }

    /// `moderation`: reports and the automatic hide.
    public struct Moderation: Sendable, Equatable {
        /// Distinct members whose reports of one subject within the window hide it; 0: never.
        public var autoHideReports: Int = 0
        public var autoHideWindowHours: Int = 0
        /// New reports one member may file a day; 0: no limit.
        public var reportsPerMemberPerDay: Int = 0
        /// The club's blocked words, one per line; empty: none.
        public var blockedTermsFile: String = ""
        /// Days an account must be old before its meetups' descriptions may hold links; 0: no rule.
        public var newMemberDays: Int = 0
    }

    /// `console`: the web console's sign-in.
    public struct Console: Sendable, Equatable {
        /// Whether admins must have a second factor before the console shows them anything else.
        public enum AdminSecondFactor: String, Sendable, Equatable, CaseIterable {
            /// Admins may enrol; those who did are asked for a code at each sign-in.
            case optional
            /// Admins without one enrol before any other page.
            case required
        }

        public var adminSecondFactor: AdminSecondFactor = .optional
    }

    /// `auth`: the identity providers members sign in with.
    public struct Auth: Sendable, Equatable {
        /// `auth.apple`: Sign in with Apple.
        public struct Apple: Sendable, Equatable {
            /// The app's bundle ids and Services ids accepted as `aud`; empty turns Apple sign-in off.
            public var clientIDs: [String] = []
            public var jwksURL: String = ""
            /// The team, key id and `.p8` key that sign Belay's client secret, to revoke a
            /// member's Apple tokens when they delete their account; empty: no revocation.
            public var teamID: String = ""
            public var keyID: String = ""
            public var privateKeyFile: String = ""
            public var tokenURL: String = ""
            public var revokeURL: String = ""
        }

        /// `auth.google`: Sign in with Google.
        public struct Google: Sendable, Equatable {
            /// The OAuth client ids accepted as `aud`; empty turns Google sign-in off.
            public var clientIDs: [String] = []
            public var jwksURL: String = ""
        }

        public var apple: Apple = Apple()
        public var google: Google = Google()
    }

    /// `mail`: outgoing mail (sign-in codes) over SMTP.
    public struct Mail: Sendable, Equatable {
        /// How sign-in mail leaves Belay.
        public enum Transport: String, Sendable, Equatable, CaseIterable {
            /// SMTP when `smtp_url` is set, else the outbox when `server.public_base_url` is on
            /// this machine or a private network, else no email sign-in.
            case auto
            /// Through `smtp_url`.
            case smtp
            /// Written to files under `data_directory/mail-outbox` and to the log: for trying
            /// Belay on one machine, never for members.
            case outbox
            /// No email sign-in.
            case off
        }

        public var transport: Transport = .auto
        /// `smtps://host:465` or `smtp://host:587` (STARTTLS); empty turns email sign-in off.
        public var smtpURL: String = ""
        public var username: String = ""
        public var password: String = ""
        /// The sender, `Club <no-reply@club.example>` or a bare address.
        public var from: String = ""
        /// 1 refuses to send over `smtp://` without STARTTLS; 0 allows plain SMTP (a relay on the machine).
        public var requireTLS: Bool = false
    }

    /// `push`: notices to members' phones through APNs and FCM.
    public struct Push: Sendable, Equatable {
        /// `push.apns`: Apple's push service, token-based; empty `key_file` turns iPhones off.
        public struct APNs: Sendable, Equatable {
            /// The `.p8` token-signing key from Apple's developer site.
            public var keyFile: String = ""
            public var keyID: String = ""
            public var teamID: String = ""
            public var url: String = ""
            public var sandboxURL: String = ""
            public var isConfigured: Bool { !keyFile.isEmpty }
        }

        /// `push.fcm`: Firebase Cloud Messaging; empty `service_account_file` turns Android off.
        public struct FCM: Sendable, Equatable {
            public var serviceAccountFile: String = ""
            public var url: String = ""
            public var isConfigured: Bool { !serviceAccountFile.isEmpty }
        }

        /// A reminder goes out this many minutes before a meetup starts; 0: no reminders.
        public var reminderMinutesBefore: Int = 0
        /// A member holding an offer is warned this many minutes before it runs out; 0: no warning.
        public var offerWarningMinutes: Int = 0
        /// Days sent notices are kept.
        public var retentionDays: Int = 0
        /// A CA bundle trusted instead of the system's for APNs and FCM (a local test server); empty: the system's.
        public var caFile: String = ""
        public var apns: APNs = APNs()
        public var fcm: FCM = FCM()
    }

    /// `images`: where reward images are kept and how they are served.
    public struct Images: Sendable, Equatable {
        /// Which store holds reward images.
        public enum Store: String, Sendable, Equatable, CaseIterable {
            /// Files under `data_directory` (a shared mount for several nodes).
            case directory
            /// A bucket of an S3-compatible object store.
            case s3
        }

        /// `images.s3`: the bucket.
        public struct S3: Sendable, Equatable {
            /// `scheme://host[:port]`; empty for AWS S3 in `region`.
            public var endpoint: String = ""
            public var bucket: String = ""
            public var region: String = ""
            /// Put before every key (empty, or ending in `/`).
            public var prefix: String = ""
            /// Empty: `AWS_ACCESS_KEY_ID`.
            public var accessKeyID: String = ""
            /// A file holding the secret key; empty: `AWS_SECRET_ACCESS_KEY`.
            public var secretAccessKeyFile: String = ""
            /// The bucket in the path (MinIO, Ceph) rather than the host name.
            public var pathStyle: Bool = false
            /// How long a presigned image URL works.
            public var presignSeconds: Int = 0
            /// Images are read from the bucket and sent by Belay rather than redirected to.
            public var proxy: Bool = false
            public var timeoutSeconds: Int = 0
            public var maxAttempts: Int = 0
            /// A CA bundle trusted for the store instead of the system's; empty: the system's.
            public var caFile: String = ""
        }

        public var store: Store = .directory
        /// With `s3`: image requests are redirected here followed by the object's key; empty: a presigned URL.
        public var publicBaseURL: String = ""
        public var s3: S3 = S3()
    }

    /// `rate_limits`: how much one caller may ask of the server.
    public struct RateLimits: Sendable, Equatable {
        /// Requests to `/v1/auth/*` per minute from one client address.
        public var authPerAddressPerMinute: Int = 0
        /// Sign-in codes mailed to one address per hour.
        public var authPerEmailPerHour: Int = 0
        /// Changes (POST, PUT, PATCH, DELETE) one member may make per minute.
        public var writesPerMemberPerMinute: Int = 0
        /// Share events one member may post per minute.
        public var shareEventsPerMemberPerMinute: Int = 0
        /// Requests to the public pages (share pages, badges, artwork) per client address per minute.
        public var publicPerAddressPerMinute: Int = 0
    }

    /// `share`: the App IDs Instagram and Facebook Stories require.
    public struct Share: Sendable, Equatable {
        /// Facebook App ID passed as `source_application` to Instagram; empty when not set up.
        public var instagramAppID: String = ""
        /// Facebook App ID for Facebook Stories; empty when not set up.
        public var facebookAppID: String = ""
        /// `share.stories_background`: what Stories composers get under the sticker: `image`
        /// (the gradient without the sticker, as a PNG) or `colors` (only the two colours).
        public var storiesBackground: StoriesBackground = .image
        /// Size of the Stories background image in pixels (9:16; Meta takes at most 720x1280 on Android).
        public var storiesBackgroundWidth: Int = 0
        public var storiesBackgroundHeight: Int = 0
        /// Share events one member may record for one reward.
        public var maxEventsPerReward: Int = 0
        /// Days share events are kept one by one; older whole days are counted into daily
        /// totals (which statistics read) and the events deleted.
        public var eventsRetentionDays: Int = 0
    }

    /// `share.stories_background`.
    public enum StoriesBackground: String, Sendable, Equatable, CaseIterable {
        case image, colors
    }

    /// `app_links`: the club's apps, so share links open them where they are installed
    /// (Universal Links, App Links) and share pages link to their stores.
    public struct AppLinks: Sendable, Equatable {
        /// iOS app ids, `TEAMID.bundle.id`, for `apple-app-site-association`; empty when none.
        public var iosAppIDs: [String] = []
        /// The Android application id for `assetlinks.json`; empty when none.
        public var androidPackage: String = ""
        /// SHA-256 fingerprints of the Android signing certificates (`AA:BB:…`).
        public var androidSHA256Fingerprints: [String] = []
        /// The app's App Store page, shown on share pages; empty when none.
        public var appStoreURL: String = ""
        /// The app's Google Play page, shown on share pages; empty when none.
        public var playStoreURL: String = ""
    }

    public var server: Server = Server()
    /// Where Belay keeps its database and rendered images.
    public var dataDirectory: String = ""
    /// The SQLite database; `""` in the file means `<data_directory>/belay.sqlite3`.
    public var databasePath: String = ""
    /// `full` or `normal`; see `Durability`.
    public var databaseDurability: Durability = .full
    /// `database`: the PostgreSQL server, when the data is on one.
    public var database: DatabaseServer = DatabaseServer()
    /// Backgrounds, hold artworks and template settings.
    public var assetsDirectory: String = ""
    /// The `NNNN_name.sql` migrations applied by `belay migrate`.
    public var migrationsDirectory: String = ""
    public var fonts: Fonts = Fonts()
    public var club: Club = Club()
    public var checkIn: CheckIn = CheckIn()
    public var rewards: Rewards = Rewards()
    public var render: Render = Render()
    public var backfill: Backfill = Backfill()
    public var share: Share = Share()
    public var appLinks: AppLinks = AppLinks()
    public var webhooks: Webhooks = Webhooks()
    public var calendar: Calendar = Calendar()
    public var meetups: Meetups = Meetups()
    public var logbook: Logbook = Logbook()
    public var waitlist: Waitlist = Waitlist()
    public var accounts: Accounts = Accounts()
    public var moderation: Moderation = Moderation()
    public var console: Console = Console()
    public var auth: Auth = Auth()
    public var mail: Mail = Mail()
    public var rateLimits: RateLimits = RateLimits()
    public var push: Push = Push()
    public var images: Images = Images()
    /// The configuration file these settings were read from; nil when only built-in defaults
    /// and the environment were used.
    public var sourceFile: String?
}
