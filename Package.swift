// swift-tools-version:6.0
import PackageDescription

/// Belay: the backend of a climbing club's app.
///
/// Module layering (dependencies point one way only):
///   libcrypto ─► BelayCore (JSON, RFC 3339, SHA-256 and content digests, clocks, atomic
///                files, "did you mean", metrics, the logger and its sinks, shutdown signals):
///                every Swift module below may use it
///   BelayCore + C libraries ─► BelayRender, BelayHTTP, BelayConfig
///   BelayCore ─► BelayStorage (the storage interface: connections, stores, rows, errors, the SQL
///                dialect, the migrator; no engine)
///   BelayStorage ─► BelayDomain ─► BelayPipeline (render jobs, image store, backfill)
///   BelayStorage + libsqlite3 ─► BelaySQLite (the embedded engine) ─► BelayComposition
///   BelayStorage + libpq ─► BelayPostgres (connections, migrations, `belay db copy`) ─► BelayComposition
///   libcurl ─► BelayOutbound (the libcurl easy handle and its pool) ─► BelayWebhooks, BelayIdentity
///   BelayDomain + BelayOutbound ─► BelayWebhooks (signed deliveries)
///   BelayOutbound + BelayPipeline ─► BelayObjectStore (S3's REST protocol with SigV4; reward
///                images and backups in a bucket) ─► BelayComposition
///   BelayCore + BelayOutbound + libcrypto ─► BelayIdentity (ID tokens of Apple and Google, Apple's
///                client secret and revocation, outbound mail over SMTP); knows nothing of the domain,
///                which consumes it through plain values
///   BelayDomain + BelayOutbound + BelayIdentity ─► BelayPush (APNs and FCM over HTTP/2, the notice
///                delivery worker)
///   BelayRender ──────────────────► BelayPipeline
///   BelayDomain + BelayPipeline ─► BelayRepresentations (each entity's one JSON shape)
///   BelayRepresentations ─► BelayAPI (the REST handlers), BelayCommandLine (`--json`)
///   libqrencode ─► BelayAPI (the kiosk's QR code, drawn as SVG)
///   BelayConfig + BelayAPI + BelayPipeline + BelayWebhooks + BelayPush ─► BelayComposition ─► BelayCommandLine ─► belay
///   BelayCore ─► BelayArguments (the command-line framework) ─► BelayCommandLine (commands only)
/// Lower modules take plain settings structs; BelayComposition, the composition root, is the one
/// place that turns config.json into them and wires the pipeline and the server, and the one place
/// that chooses the database engine (ClubDatabase). The CLI reaches the server and the database
/// only through it: it imports neither BelayAPI nor BelayStorage, an engine module or a C library.
/// Each target's `dependencies` names exactly the modules its files import (`make test` checks it
/// with scripts/check-module-graph).

func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

/// Pixel loops are unusably slow at -Onone, so the renderer is optimised even in debug builds.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Belay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "belay", targets: ["belay"]),
    ],
    targets: [
        // C libraries from Debian.
        systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: ["libsqlite3-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng16", apt: ["libpng-dev"]),
        systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
        systemLibrary("CDeflate", pkgConfig: "libdeflate", apt: ["libdeflate-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
        systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: ["libharfbuzz-dev"]),
        systemLibrary("CRaqm", pkgConfig: "raqm", apt: ["libraqm-dev"]),
        systemLibrary("CFriBidi", pkgConfig: "fribidi", apt: ["libfribidi-dev"]),
        systemLibrary("CUnibreak", pkgConfig: "libunibreak", apt: ["libunibreak-dev"]),
        systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"]),
        systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: ["libssl-dev"]),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        systemLibrary("CPQ", pkgConfig: "libpq", apt: ["libpq-dev"]),
        systemLibrary("CQREncode", pkgConfig: "libqrencode", apt: ["libqrencode-dev"]),

        // C shims for what Swift cannot call (setjmp/longjmp error handling, variadic functions,
        // macros) and, in CImageShim, the renderer's hottest loops, compiled -O2 in every configuration.
        .target(
            name: "CImageShim",
            dependencies: ["CPNG", "CJPEG", "CDeflate"],
            cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))],
            linkerSettings: [.linkedLibrary("z")]
        ),
        .target(name: "CHTTPShim", dependencies: ["CMicroHTTPD"]),
        .target(name: "CSQLiteShim", dependencies: ["CSQLite"]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // ICU's spoof checker from Debian's libicu-dev, behind plain C (Foundation's own ICU
        // headers clash with Debian's in a Swift module, so none are exposed).
        .target(name: "CICUShim", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),

        // Swift modules.
        // The bottom: JSON, RFC 3339, digests, clocks, atomic files, suggestions, metrics, logging.
        .target(name: "BelayCore", dependencies: ["CCrypto"]),
        .target(name: "BelayConfig", dependencies: ["BelayCore"]),
        // The storage interface every engine implements: connections, stores, rows, values,
        // engine-neutral errors, the SQL dialect and the one migrator. No engine lives here.
        .target(name: "BelayStorage", dependencies: ["BelayCore"]),
        // The embedded engine: SQLite files, their single writer, checkpoints and backups.
        .target(name: "BelaySQLite", dependencies: ["BelayStorage", "CSQLite", "CSQLiteShim"]),
        .target(
            name: "BelayRender",
            dependencies: ["BelayCore", "CImageShim", "CDeflate", "CFreeType", "CHarfBuzz", "CRaqm", "CFriBidi", "CUnibreak"],
            swiftSettings: optimisedInDebug
        ),
        .target(name: "BelayHTTP", dependencies: ["BelayCore", "CHTTPShim", "CMicroHTTPD"]),
        // PostgreSQL through libpq: connections, its migrations, and copying a SQLite club into it.
        .target(name: "BelayPostgres", dependencies: ["BelayCore", "BelayStorage", "CPQ"]),
        .target(name: "BelayDomain", dependencies: ["BelayCore", "BelayStorage"]),
        // Text as people read it: words matched after NFKC, case folding and Unicode's confusables (ICU).
        .target(name: "BelayText", dependencies: ["BelayCore", "BelayDomain", "CICUShim"]),
        .target(name: "BelayPipeline", dependencies: ["BelayCore", "BelayDomain", "BelayRender", "CCrypto", "CDeflate"]),
        // The libcurl easy handle and its pool, shared by everything that calls out over the network.
        .target(name: "BelayOutbound", dependencies: ["CCurlShim"]),
        // S3's REST protocol (SigV4, objects, listings, multipart uploads) and the image store on a bucket.
        .target(name: "BelayObjectStore", dependencies: ["BelayCore", "BelayOutbound", "BelayPipeline", "CCurlShim"]),
        // Signed webhook delivery: signing, the libcurl client and the background worker.
        .target(name: "BelayWebhooks", dependencies: ["BelayCore", "BelayDomain", "BelayOutbound", "CCurlShim"]),
        // Member sign-in's outside world: ID token verification against the providers' keys,
        // Apple's client secret, code exchange and revocation, and mail over SMTP.
        .target(name: "BelayIdentity", dependencies: ["BelayCore", "BelayOutbound", "CCrypto", "CCurlShim"]),
        .target(name: "BelayPush", dependencies: ["BelayCore", "BelayDomain", "BelayOutbound", "BelayIdentity", "CCurlShim"]),
        // Each entity's one JSON shape (and the attendee CSV), for the API, webhooks and `--json` alike.
        .target(name: "BelayRepresentations", dependencies: ["BelayCore", "BelayDomain", "BelayPipeline", "BelayRender"]),
        // What HTTP, the console and the command line run alike: each flow of domain services and outbound clients (signing in, deleting an account).
        .target(name: "BelayUseCases", dependencies: ["BelayCore", "BelayDomain", "BelayIdentity"]),
        .target(name: "BelayAPI", dependencies: ["BelayCore", "BelayDomain", "BelayRepresentations", "BelayPipeline", "BelayRender", "BelayHTTP", "BelayIdentity",
                                             "BelayUseCases", "CQREncode"]),
        // The composition root: config.json into every layer's settings, the pipeline and the server wired.
        .target(name: "BelayComposition",
                dependencies: ["BelayCore", "BelayAPI", "BelayRepresentations", "BelayConfig", "BelayDomain", "BelayPipeline", "BelayRender", "BelayWebhooks", "BelayText",
                               "BelayHTTP", "BelayStorage", "BelaySQLite", "BelayPostgres", "BelayIdentity", "BelayPush", "BelayObjectStore",
                               "BelayUseCases", "CDeflate"]),
        // The command-line framework: declarations, parsing, help, exit codes (no Belay commands).
        .target(name: "BelayArguments", dependencies: ["BelayCore"]),
        // The commands: they reach the database engines (BelaySQLite, BelayPostgres) only through BelayComposition.
        .target(name: "BelayCommandLine", dependencies: ["BelayCore", "BelayArguments", "BelayComposition", "BelayConfig", "BelayDomain", "BelayPipeline",
                                                     "BelayRender", "BelayRepresentations", "BelayUseCases", "BelayWebhooks", "BelayPush"]),
        .executableTarget(name: "belay", dependencies: ["BelayCommandLine"]),
        // The HTTP layer alone with the API's JSON writer, for bench/http's comparison with nginx.
        .executableTarget(name: "belay-http-bench", dependencies: ["BelayCore", "BelayHTTP"], path: "Sources/BelayHTTPBenchServer"),

        // Shared helpers for tests: temporary directories, running the real binary, free ports,
        // and each layer's settings made from the built-in defaults by BelayComposition.
        .target(name: "BelayTestSupport", dependencies: ["BelayCore", "BelayStorage", "BelaySQLite", "BelayPostgres", "BelayComposition",
                                                         "BelayConfig", "BelayDomain", "BelayHTTP", "BelayPipeline", "BelayRender"],
                path: "Tests/BelayTestSupport"),

        .testTarget(name: "BelayCoreTests", dependencies: ["BelayCore", "BelayTestSupport"]),
        .testTarget(name: "BelayConfigTests", dependencies: ["BelayConfig", "BelayCore", "BelayTestSupport"]),
        .testTarget(name: "BelaySQLiteTests", dependencies: ["BelayStorage", "BelaySQLite", "CSQLiteShim", "BelayTestSupport"]),
        .testTarget(name: "BelayPostgresTests", dependencies: ["BelayPostgres", "BelayStorage", "BelaySQLite", "BelayTestSupport"]),
        .testTarget(
            name: "BelayRenderTests", dependencies: ["BelayRender", "CFreeType", "CHarfBuzz", "BelayTestSupport"],
            // Test inputs and golden images, found through #filePath rather than bundled.
            exclude: ["Fixtures", "Goldens"]
        ),
        .testTarget(name: "BelayHTTPTests", dependencies: ["BelayHTTP", "BelayCore", "BelayTestSupport"]),
        .testTarget(name: "BelayTextTests", dependencies: ["BelayText"]),
        .testTarget(name: "BelayDomainTests", dependencies: ["BelayDomain", "BelayCore", "BelayPush", "BelayStorage", "BelaySQLite", "BelayPostgres",
                                                             "BelayTestSupport"]),
        .testTarget(name: "BelayPipelineTests", dependencies: ["BelayPipeline", "BelayCore", "BelayDomain", "BelayRender", "BelayStorage", "BelaySQLite", "BelayTestSupport"]),
        .testTarget(name: "BelayWebhooksTests", dependencies: ["BelayWebhooks", "BelayCore", "BelayDomain", "BelayStorage", "CCurlShim", "BelayTestSupport"]),
        .testTarget(name: "BelayIdentityTests", dependencies: ["BelayIdentity", "BelayCore", "BelayTestSupport"]),
        .testTarget(name: "BelayObjectStoreTests", dependencies: ["BelayObjectStore", "BelayPipeline", "BelayCore", "BelayTestSupport"]),
        .testTarget(name: "BelayPushTests", dependencies: ["BelayPush", "BelayCore", "BelayDomain", "BelayStorage", "BelayTestSupport"]),
        // `belay` is there for the binary the tests run (BelayProcess), not for an import.
        .testTarget(name: "BelayAPITests", dependencies: ["BelayAPI", "BelayComposition", "BelayConfig", "BelayCore", "BelayDomain", "BelayHTTP",
                                                          "BelayIdentity", "BelayPipeline", "BelayRender", "BelayRepresentations", "BelayStorage", "BelaySQLite",
                                                          "BelayTestSupport", "BelayUseCases", "belay"]),
        .testTarget(name: "BelayArgumentsTests", dependencies: ["BelayArguments"]),
        .testTarget(name: "BelayCLITests", dependencies: ["BelayCommandLine", "BelayAPI", "BelayArguments", "BelayConfig", "BelayCore", "BelayDomain",
                                                          "BelayPipeline", "BelayStorage", "BelaySQLite", "BelayTestSupport", "belay"]),
    ]
)
