import BelayCore
import BelayHTTP
import Foundation
import Testing

@Suite("JSON responses")
struct JSONEncodingTests {
    @Test("Response.json writes with JSONOutput: compact, unescaped slashes, members by name, the status and type given")
    func jsonResponse() throws {
        let response = Response.json(["url": "https://x/y", "id": 1, "starts_at": "2026-11-29T19:00:00+09:00"], status: .created)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(String(decoding: response.body.bytes, as: UTF8.self)
            == #"{"id":1,"starts_at":"2026-11-29T19:00:00+09:00","url":"https://x/y"}"#)
    }

    @Test("Response.json(bytes:) keeps a Content-Type it is given")
    func writtenBody() {
        let response = Response.json(bytes: Array("[]".utf8), headers: ["Content-Type": "application/geo+json"])
        #expect(response.headers["Content-Type"] == "application/geo+json")
        #expect(response.body.bytes == Array("[]".utf8))
    }
}
