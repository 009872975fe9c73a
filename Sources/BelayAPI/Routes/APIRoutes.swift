import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import BelayUseCases
import Foundation

/// Every route of the Belay API, registered on a router: the three public ones, and the
/// rest behind `AuthenticationMiddleware`.
///
/// Handlers translate HTTP to the domain and back: they read path, query and body, ask the
/// domain (which enforces the rules and the roles it knows about), and write the answer.
/// Every route is registered with its OpenAPI operation (`OperationRoutes`); those behind
/// authentication get their caller by type (`AuthenticatedContext`). Role rules the domain
/// cannot know (who may see another member's reward, statistics, metrics) are declared with
/// the route's registration, or checked in its handler when they depend on the request.
public struct APIRoutes: Sendable {
    let services: APIServices
    let tokenCache: TokenCache
    let responseCache: ResponseCache
    /// Share pages as sent, for a few seconds: crawlers and friends opening the same link
    /// cost a lookup, and a revocation still shows within the pages' cache lifetime.
    let sharePageCache: ExpiringMemory<String, CachedPage>
    /// The identity providers, mail and limits of signing in.
    let signIn: SignInServices
    /// Signing in with a provider's token, an emailed code or a second factor.
    let signingIn: SignIn
    /// Deleting a member's own account, and revoking their Apple tokens after.
    let erasure: AccountErasure
    /// Limits per member and per address on the rest of the API.
    let limits: APIRateLimits
    /// Members' calendar feeds as built, by ETag.
    let calendarFeeds: CalendarFeedCache
    /// The issuer profile and the status lists as built, with what they were built from.
    let badgeAnswers = BadgeAnswerCache()
    /// Refuses changes until the club's current terms are accepted.
    let termsGate: TermsGate

    public init(services: APIServices, tokenCache: TokenCache, responseCache: ResponseCache = ResponseCache(),
                sharePageCacheLifetime: Duration = .seconds(10), clock: any TimeSource = SystemTimeSource(),
                signIn: SignInServices, limits: APIRateLimits) {
        self.signIn = signIn
        signingIn = SignIn(accounts: services.domain.accounts, secondFactors: services.domain.secondFactors, apple: signIn.apple,
                           google: signIn.google, appleAccounts: signIn.appleAccounts, outbound: signIn.outbound)
        erasure = AccountErasure(accounts: services.domain.accounts, appleAccounts: signIn.appleAccounts)
        self.limits = limits
        sharePageCache = ExpiringMemory(lifetime: sharePageCacheLifetime, capacity: 4_096, maximumCost: 16 << 20,
                                        clock: clock, cost: { $0.bytes.count })
        self.services = services
        self.tokenCache = tokenCache
        self.responseCache = responseCache
        termsGate = TermsGate(safety: services.domain.safety)
        calendarFeeds = CalendarFeedCache(name: "\(services.presentation.clubName) meetups", settings: services.calendar, clock: clock)
    }

    var domain: DomainServices { services.domain }
    var presentation: Presentation { services.presentation }

    /// Registers every route on `router`, each with its OpenAPI operation, and serves the document
    /// made of those operations; authenticated routes also go through the middleware that
    /// empties the response cache after changes.
    public func register(on router: Router<APIContext>) {
        let registered = RegisteredOperations()
        let routes = OperationRoutes<APIContext>(router.group(), recordingIn: registered)
        routes.on(Operations.health) { _, _ in Self.healthy }
        routes.on(Operations.readiness) { _, _ in readiness() }

        // Refusals become problems inside each limit, so that they carry its RateLimit fields too.
        let publicPages = routes.add(middleware: limits.publicMiddleware()).add(middleware: DomainErrorMiddleware())
        registerSharePageRoutes(on: publicPages)
        registerBadgeRoutes(on: publicPages)
        registerPublicHoldArtworkRoute(on: publicPages)

        let authenticated = routes
            .add(middleware: AuthenticationMiddleware(users: domain.users, cache: tokenCache))
            .add(middleware: termsGate.middleware())
            .add(middleware: limits.writesMiddleware())
            .add(middleware: limits.shareEventsMiddleware())
            .add(middleware: ResponseCacheInvalidation(cache: responseCache))
            .with(AuthenticatedContext.self)
        authenticated.on(Operations.metrics, allowing: [.admin], to: "read the server's metrics") { _, _ in
            .metrics(text: services.metricsText() + moderationMetricsText())
        }
        registerAuthRoutes(public: routes, authenticated: authenticated)
        registerAccountRoutes(public: routes, authenticated: authenticated)
        registerDeviceRoutes(authenticated: authenticated)
        registerMeetupRoutes(on: authenticated)
        registerAttendanceRoutes(on: authenticated)
        registerCheckInRoutes(on: authenticated)
        registerRewardRoutes(on: authenticated)
        registerShareRoutes(on: authenticated)
        registerCollectionRoutes(on: authenticated)
        registerSharePreferenceRoutes(on: authenticated)
        registerWebhookRoutes(on: authenticated)
        registerCalendarRoutes(public: routes, authenticated: authenticated)
        registerHoldRoutes(on: authenticated)
        registerCohostRoutes(on: authenticated)
        registerSeriesRoutes(on: authenticated)
        registerWaitlistRoutes(on: authenticated)
        registerHostTaskRoutes(on: authenticated)
        registerKioskRoutes(public: publicPages, authenticated: authenticated)
        registerLogbookRoutes(on: authenticated)
        registerSafetyRoutes(on: authenticated)
        registerDiscoveryRoutes(on: authenticated)
        registerMeetupPageRoutes(on: publicPages)
        registerConsoleRoutes(on: routes)
        registerFrontDoorRoutes(on: routes)
        registerDocumentRoutes(on: routes)
    }

    /// `GET /openapi.json` and `GET /openapi.html`, registered last: the document describes the
    /// operations every other route was registered with, and these two.
    private func registerDocumentRoutes(on routes: OperationRoutes<APIContext>) {
        let document = routes.registered.document(adding: [Operations.openAPI, Operations.readableAPIDocument], serverURL: "/")
        let bytes = JSONOutput.bytes(of: document)
        routes.on(Operations.openAPI) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-cache"],
                     body: ResponseBody(bytes: bytes))
        }
        registerReadableDocumentRoute(on: routes, document: document)
    }

    static let healthy = Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                                  body: ResponseBody(string: #"{"status":"ok"}"#))

    private func readiness() -> Response {
        let report = services.readiness()
        var json = JSONOutput()
        json.object { json in
            json.member("status", report.isReady ? "ready" : "not_ready")
            json.member("checks") { json in
                for check in report.checks {
                    json.key(dynamic: check.name)
                    json.string(check.status)
                }
            }
        }
        return Response(status: report.isReady ? .ok : .serviceUnavailable,
                        headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                        body: ResponseBody(bytes: json.bytes))
    }
}

extension Response {
    /// Prometheus text exposition.
    static func metrics(text: String) -> Response {
        Response(status: .ok, headers: ["Content-Type": MetricsRegistry.contentType, "Cache-Control": "no-store"],
                 body: ResponseBody(string: text))
    }
}
