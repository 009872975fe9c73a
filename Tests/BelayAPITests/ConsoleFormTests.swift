@testable import BelayAPI
import BelayHTTP
import Testing

/// Reading form bodies as browsers send them.
@Suite struct ConsoleFormTests {
    @Test func fieldsArePercentDecodedWithPlusAsASpaceInTheOrderSent() {
        let form = ConsoleForm(body: Array("title=%EB%B3%BC%EB%8D%94%EB%A7%81+%EB%B0%A4&a=1&a=2&empty=&flag&csv=wall%2Ccolour%0D%0A".utf8))
        #expect(form["title"] == "볼더링 밤")
        #expect(form["a"] == "1")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["csv"] == "wall,colour\r\n")
        #expect(form["missing"] == nil)
        #expect(form.fields.map(\.name) == ["title", "a", "a", "empty", "flag", "csv"])
    }

    @Test func malformedEscapesAndBytesThatAreNotUTF8AreKeptAsText() {
        let form = ConsoleForm(body: Array("a=100%&b=%zz&c=%E0%A4&d=%".utf8))
        #expect(form["a"] == "100%")
        #expect(form["b"] == "%zz")
        #expect(form["c"] == "\u{FFFD}")
        #expect(form["d"] == "%")
    }

    @Test func encodingRoundTrips() {
        let text = "지수 & <friends> 100%"
        #expect(ConsoleForm(body: Array("x=\(ConsoleForm.encoded(text))".utf8))["x"] == text)
    }

    @Test func cookiesAreReadByNameTrimmedFirstOneWinningAcrossHeaders() {
        var headers = HTTPHeaders()
        headers.add(name: "Cookie", value: " belay_console = a.b.c ;other=x=y;;noequals; belay_console=second;\tspaced\t=\t1 ")
        headers.add(name: "Cookie", value: "late=z; other=ignored")
        let values = ConsoleCookies.values(in: Request(method: .get, path: "/console", queryItems: [], headers: headers, body: [], bodyLimit: 0))
        #expect(values == ["belay_console": "a.b.c", "other": "x=y", "spaced": "1", "late": "z"])
        #expect(ConsoleCookies.Session(value: "a.b.c") == ConsoleCookies.Session(accessToken: "a", refreshToken: "b", formSecret: "c"))
        #expect(ConsoleCookies.Session(value: "a..c") == nil)
        #expect(ConsoleCookies.Session(value: "a.b.c.d") == nil)
        #expect(ConsoleCookies.Session(value: "한.b.c")?.accessToken == "한")
    }
}
