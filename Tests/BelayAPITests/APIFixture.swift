import BelayCore
import BelayAPI
import BelayComposition
import BelayConfig
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

/// A Belay application built in-process over its own data directory (migrated, with the real
/// hold catalogue), a manual clock, and a fake renderer, answered through its router without
/// a socket: the starting point of the API tests.
final class APIFixture: @unchecked Sendable {
    /// 2026-11-29T10:00:00Z (19:00 in Seoul).
    static let start = Date(timeIntervalSince1970: 1_795_946_400)

    let directory: TemporaryDirectory
    let configuration: BelayConfiguration
    let clock: ManualTimeSource
    let application: BelayApplication
    let admin: Member
    let host: Member
    private var memberCount = 0

    /// A user and a bearer token of theirs.
    struct Member {
        let user: User
        let token: String
        var id: Int64 { user.id }
    }

    /// - Parameters:
    ///   - settings: extra `config.json` members (e.g. `"share": {"instagram_app_id": "123"}`).
    ///   - tokenCacheLifetime: how long authentications are cached.
    ///   - responseCacheLifetime: how long meetup bodies are cached; off by default because tests
    ///     change data behind the server's back (through the domain, as the CLI would).
    ///   - collections: renders collection images (a fake that writes small files when nil).
    ///   - realStickers: draws stickers with the real renderer (for screenshots) instead of the fake.
    init(settings: [String: Any] = [:], tokenCacheLifetime: Duration = .seconds(1), responseCacheLifetime: Duration = .zero,
         collections: (any CollectionImageSource)? = nil, realStickers: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "belay-api")
        var file: [String: Any] = [
            "data_directory": directory.file("data"),
            "assets_directory": BelayProcess.packageRoot.appendingPathComponent("Assets").path,
            "migrations_directory": BelayProcess.packageRoot.appendingPathComponent("Migrations").path,
            "server": ["port": 0, "public_base_url": "https://api.belay.example"],
            "database": ["url": try TestDatabase.configuredURL()],
        ]
        file.merge(settings) { _, new in new }
        let data = try JSONSerialization.data(withJSONObject: file)
        try data.write(to: URL(fileURLWithPath: directory.file("config.json")))
        configuration = try BelayConfiguration.load(configFile: directory.file("config.json"), environment: [:],
                                                    currentDirectory: directory.path)
        clock = ManualTimeSource(Self.start)
        _ = try prepareDataDirectory(configuration, clock: clock)
        application = try buildApplication(configuration, options: ApplicationOptions(
            rendererFactory: realStickers ? nil : { @Sendable in FakeStickerRenderer() }, collections: collections ?? FakeCollectionSource(directory: directory.file("collections")),
            logSink: DiscardingLogSink(), clock: clock, tokenCacheLifetime: tokenCacheLifetime,
            responseCacheLifetime: responseCacheLifetime, sharePageCacheLifetime: .zero))
        let users = application.domain.users
        let adminUser = try users.createUser(NewUser(handle: "admin", displayName: "Admin", role: .admin))
        admin = Member(user: adminUser, token: try users.issueToken(userID: adminUser.id).secret)
        let hostUser = try users.createUser(NewUser(handle: "host", displayName: "Host", role: .host))
        host = Member(user: hostUser, token: try users.issueToken(userID: hostUser.id).secret)
    }

    deinit {
        application.workers.stop()
    }

    var domain: DomainServices { application.domain }

    /// A new member (or user of another role) with a token.
    func member(role: Role = .member, name: String? = nil) throws -> Member {
        memberCount += 1
        let user = try domain.users.createUser(NewUser(handle: name ?? "member\(memberCount)", displayName: "Member \(memberCount)", role: role))
        return Member(user: user, token: try domain.users.issueToken(userID: user.id).secret)
    }

    /// A meetup of `host` starting in `startsIn` seconds and lasting two hours.
    func meetup(capacity: Int = 10, startsIn: TimeInterval = 600, host: Member? = nil, place: String = "Seoul Forest Climbing") throws -> Meetup {
        let start = clock.now().addingTimeInterval(startsIn)
        let owner = host ?? self.host
        return try domain.meetups.create(NewMeetup(title: "Evening session", placeName: place, startsAt: start,
                                                   endsAt: start.addingTimeInterval(7_200), timeZone: "Asia/Seoul",
                                                   capacity: capacity, hostID: owner.id), by: owner.user.actorForTests)
    }

    /// The code a member would type now.
    func currentCode(_ meetup: Meetup) throws -> String {
        try domain.meetups.currentCheckInCode(meetupID: meetup.id, by: .commandLine).code
    }

    /// Sends one request through the router.
    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil, body: [UInt8]? = nil,
              headers: [(String, String)] = []) -> APIResponse {
        var fields = HTTPHeaders()
        if let token { fields.add(name: "Authorization", value: "Bearer \(token)") }
        if json != nil { fields.add(name: "Content-Type", value: "application/json") }
        for (name, value) in headers { fields.add(name: name, value: value) }
        let (pathPart, query) = Self.split(path)
        let request = Request(method: method, path: pathPart, queryItems: query, headers: fields,
                              body: body ?? json.map { Array($0.utf8) } ?? [], bodyLimit: 65_536)
        let response = APIResponse(application.responder.respondWaiting(to: request))
        ResponseContract.current.record(method: method.rawValue, target: path, status: response.status,
                                        contentType: response.contentType, bytes: response.bytes)
        return response
    }

    /// The OpenAPI document the application serves at `/openapi.json`, read through the router
    /// without holding the answer to the document itself (`ResponseContract.current` is made
    /// from it).
    func servedDocument() -> JSONValue {
        let request = Request(method: .get, path: "/openapi.json", queryItems: [], headers: HTTPHeaders(), body: [], bodyLimit: 65_536)
        guard let document = APIResponse(application.responder.respondWaiting(to: request)).json else {
            preconditionFailure("/openapi.json did not answer JSON")
        }
        return document
    }

    func get(_ path: String, as member: Member? = nil, headers: [(String, String)] = []) -> APIResponse {
        send(.get, path, token: member?.token, headers: headers)
    }

    func post(_ path: String, as member: Member?, json: String? = nil, headers: [(String, String)] = []) -> APIResponse {
        send(.post, path, token: member?.token, json: json, headers: headers)
    }

    private static func split(_ path: String) -> (String, [QueryItem]) {
        guard let mark = path.firstIndex(of: "?") else { return (path, []) }
        let items = path[path.index(after: mark)...].split(separator: "&").map { pair -> QueryItem in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return QueryItem(name: String(parts[0]).removingPercentEncoding ?? String(parts[0]),
                             value: parts.count > 1 ? String(parts[1]).removingPercentEncoding : nil)
        }
        return (String(path[..<mark]), items)
    }

    /// Starts the render workers and waits until `count` jobs in total have finished.
    func renderJobs(count: Int) throws {
        if !application.workers.isRunning { try application.workers.start() }
        #expect(application.workers.metrics.waitForFinishedJobs(atLeast: count, timeout: 30), "render workers finished \(application.workers.metrics.snapshot().finished) of \(count) jobs")
    }
}

extension User {
    /// The user as the actor of a domain call made by a test.
    var actorForTests: Actor { .user(id, role: role) }
}

/// A response from the router, with its body parsed when it is JSON.
struct APIResponse {
    let status: Int
    let headers: HTTPHeaders
    let bytes: [UInt8]
    let json: JSONValue?

    init(_ response: Response) {
        status = response.status.code
        headers = response.headers
        bytes = response.body.bytes
        json = try? JSONValue.parse(bytes)
    }

    subscript(key: String) -> JSONValue? { json?[key] }

    var contentType: String? { headers["Content-Type"] }

    /// The problem `code`, when the response is a problem.
    var problemCode: String? { contentType == "application/problem+json" ? json?["code"]?.stringValue : nil }
}

/// Renders bytes that name their inputs, instantly, and counts nothing: enough to check that
/// the API stores, addresses and serves what a renderer produced.
final class FakeStickerRenderer: RewardImageRenderer {
    var templateVersion: Int { 1 }

    func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys {
        let sticker = "sticker|\(request.holdArtworkPath)|\(request.backgroundPath)|\(request.placeName)|\(request.dateText)"
        return RewardImageKeys(sticker: ContentKey(canonical: sticker),
                               story: ContentKey(canonical: "story|\(request.topColor)|\(request.bottomColor)|\(sticker)"))
    }

    func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles {
        let keys = try contentKeys(for: request)
        return RewardImageFiles(sticker: sticker ? Array("PNG \(keys.sticker.canonical)".utf8) : nil,
                                story: story ? Array("PNG \(keys.story.canonical)".utf8) : nil)
    }

    /// Its keys leave the credential out, so there is nothing to bake.
    func bakeBadge(_ credential: String, into sticker: [UInt8]) throws -> [UInt8] { sticker }

    func preloadArtwork(for request: RewardImageRequest) throws {}
}

/// A collection "image" written as a small file named by the member and the reward count.
struct FakeCollectionSource: CollectionImageSource {
    let directory: String

    func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?) throws -> (file: URL, digest: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let digest = String(repeating: "c", count: 56) + String(format: "%04d", hostID ?? 0) + String(format: "%04d", memberID * 10 + Int64(scale))
        let file = URL(fileURLWithPath: directory).appendingPathComponent("\(digest).png")
        try Data("COLLECTION \(memberID) x\(scale)\(hostID.map { " host \($0)" } ?? "")".utf8).write(to: file)
        return (file, digest)
    }
}

/// Checks responses against the schemas of the application's own OpenAPI document.
struct SchemaConformance {
    let document: JSONValue
    let validator: JSONSchemaValidator

    init(_ fixture: APIFixture) throws {
        try self.init(document: try #require(fixture.get("/openapi.json").json))
    }

    init(document: JSONValue) throws {
        self.document = document
        validator = JSONSchemaValidator(document: document)
    }

    /// Every way `response` (to `method` on the route `pattern`) differs from what the document
    /// says; an undocumented status or content type is a difference too.
    func problems(_ response: APIResponse, _ method: HTTPMethod, _ pattern: String) -> [String] {
        problems(status: response.status, contentType: response.contentType, bytes: response.bytes, method, pattern)
    }

    func problems(status: Int, contentType: String?, bytes: [UInt8], _ method: HTTPMethod, _ pattern: String) -> [String] {
        let response = (status: status, contentType: contentType, bytes: bytes, json: try? JSONValue.parse(bytes))
        guard let operation = document["paths"]?[pattern]?[method.rawValue.lowercased()] else {
            return ["\(method) \(pattern) is not documented"]
        }
        guard var answer = operation["responses"]?[String(response.status)] else {
            return ["\(method) \(pattern) does not document status \(response.status)"]
        }
        if let reference = answer["$ref"]?.stringValue {
            let name = String(reference.dropFirst("#/components/responses/".count))
            guard let resolved = document["components"]?["responses"]?[name] else { return ["unresolvable \(reference)"] }
            answer = resolved
        }
        guard let content = answer["content"]?.objectValue else {
            return response.bytes.isEmpty ? [] : ["\(method) \(pattern) \(response.status) documents no body but one was sent"]
        }
        let mediaType = (response.contentType ?? "").split(separator: ";").first.map(String.init) ?? ""
        guard let schema = content[mediaType]?["schema"] else {
            return ["\(method) \(pattern) \(response.status) does not document content type \(mediaType)"]
        }
        guard mediaType.hasSuffix("json") else { return [] }
        guard let json = response.json else { return ["\(method) \(pattern) \(response.status): body is not JSON"] }
        return validator.problems(json, against: schema)
    }

    /// Records an issue for every difference.
    func check(_ response: APIResponse, _ method: HTTPMethod, _ pattern: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = problems(response, method, pattern)
        #expect(found == [], "\(method) \(pattern) → \(response.status)", sourceLocation: sourceLocation)
    }
}
