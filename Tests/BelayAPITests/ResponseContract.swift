import BelayAPI
import BelayCore
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Holds every answer the API suites receive to the served OpenAPI document, not a sample:
/// the in-process suites (`APIFixture.send`) and the end-to-end ones (`BelayServerProcess.call`)
/// pass each response through `record`, which finds the operation the concrete path belongs to
/// and records an issue for each way the answer differs from what the document says of it.
/// A path no operation has must be answered with a problem.
struct ResponseContract {
    let conformance: SchemaConformance
    /// Path templates split in segments, with how many parameters each has.
    private let templates: [(pattern: String, segments: [Substring], parameters: Int)]

    init(document: JSONValue) throws {
        conformance = try SchemaConformance(document: document)
        templates = (document["paths"]?.objectValue?.keys.sorted() ?? []).map { pattern in
            let segments = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return (pattern, segments, segments.filter { $0.contains("{") }.count)
        }
    }

    /// The document's path template that `path` (without its query) is an instance of; when
    /// several are, the one with the fewest parameters, then the most literal characters
    /// (`/v1/meetups/{id}.ics` before `/v1/meetups/{id}` for `/v1/meetups/3.ics`).
    func template(of path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var best: (pattern: String, parameters: Int)?
        func better(_ candidate: (pattern: String, parameters: Int), than current: (pattern: String, parameters: Int)) -> Bool {
            candidate.parameters != current.parameters ? candidate.parameters < current.parameters
                : candidate.pattern.count > current.pattern.count
        }
        for template in templates where template.segments.count == segments.count {
            let matches = zip(template.segments, segments).allSatisfy { part, segment in
                guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}") else { return part == segment }
                let prefix = part[..<open], suffix = part[part.index(after: close)...]
                return segment.count > prefix.count + suffix.count && segment.hasPrefix(prefix) && segment.hasSuffix(suffix)
            }
            if matches, best.map({ better((template.pattern, template.parameters), than: $0) }) ?? true {
                best = (template.pattern, template.parameters)
            }
        }
        return best?.pattern
    }

    /// Every way the answer differs from the document.
    func problems(method: String, target: String, status: Int, contentType: String?, bytes: [UInt8]) -> [String] {
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let documented = method == "HEAD" ? "GET" : method
        if let pattern = template(of: path),
           conformance.document["paths"]?[pattern]?[documented.lowercased()] != nil {
            return conformance.problems(status: status, contentType: contentType, bytes: method == "HEAD" ? [] : bytes,
                                        HTTPMethod(rawValue: documented), pattern)
        }
        // No such operation: only a problem may answer.
        guard (400...599).contains(status), contentType == "application/problem+json" else {
            return ["\(method) \(path) is in no operation of the document, yet was answered \(status) \(contentType ?? "without a body")"]
        }
        guard let problemSchema = conformance.document["components"]?["schemas"]?["Problem"] else { return ["the document has no Problem schema"] }
        guard let json = try? JSONValue.parse(bytes) else { return ["\(method) \(path) \(status): the problem is not JSON"] }
        return conformance.validator.problems(json, against: problemSchema)
    }

    /// Records an issue for every difference.
    func record(method: String, target: String, status: Int, contentType: String?, bytes: [UInt8]) {
        let found = problems(method: method, target: target, status: status, contentType: contentType, bytes: bytes)
        if !found.isEmpty {
            Issue.record(Comment(rawValue: "\(method) \(target) → \(status) differs from /openapi.json:\n\(found.joined(separator: "\n"))"))
        }
    }

    /// The contract of the code under test: the document `/openapi.json` serves, collected from
    /// the routes of the same BelayAPI the binary is built from (a test elsewhere checks that the
    /// binary serves exactly this), read once.
    static let current: ResponseContract = {
        do {
            return try ResponseContract(document: APIFixture().servedDocument())
        } catch {
            preconditionFailure("the OpenAPI document cannot be read as a contract: \(error)")
        }
    }()
}

/// The contract the suites hold answers to is the one the binary serves.
@Suite struct ServedContractTests {
    @Test func theBinaryServesTheDocumentTheSuitesHoldItsAnswersTo() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let served = try server.call("GET", "/openapi.json")
        #expect(served.status == 200)
        #expect(served.json == ResponseContract.current.conformance.document)
        #expect(ResponseContract.current.template(of: "/v1/meetups/3.ics") == "/v1/meetups/{id}.ics")
        #expect(ResponseContract.current.template(of: "/v1/meetups/3") == "/v1/meetups/{id}")
        // A path of no operation may only be answered with a problem.
        #expect(ResponseContract.current.problems(method: "GET", target: "/v1/nowhere", status: 200, contentType: "application/json",
                                                  bytes: Array("{}".utf8)) != [])
        _ = server.terminate()
    }
}
