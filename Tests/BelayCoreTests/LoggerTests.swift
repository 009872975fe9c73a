import BelayCore
import BelayTestSupport
import Foundation
import Testing

@Suite("Logger")
struct LoggerTests {
    @Test("levels below the minimum are dropped; metadata with spaces is quoted")
    func logger() {
        let sink = CapturingLogSink()
        let logger = Logger(label: "test", minimumLevel: .warning, sink: sink, metadata: [("service", "belay api")])
        logger.info("dropped")
        logger.error("kept", metadata: [("path", "/a b")])
        #expect(sink.entries.count == 1)
        #expect(sink.entries[0].formattedLine == #"error test: kept path="/a b" service="belay api""#)
    }
}

@Suite("BufferedLogSink")
struct BufferedLogSinkTests {
    @Test("batches lines in order, flushes on demand, on size and at once for warnings")
    func batching() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("access.log")
        let sink = try BufferedLogSink(path: path, flushInterval: .seconds(3600), bufferBytes: 1 << 20)
        let logger = Logger(label: "http", sink: sink)
        let contents = { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

        logger.info("first")
        logger.info("second")
        #expect(contents().isEmpty)
        sink.flush()
        let lines = contents().split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix("info http: first"))
        #expect(lines[1].hasSuffix("info http: second"))
        #expect(lines[0].wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info http: first/) != nil)

        logger.warning("urgent")
        #expect(contents().hasSuffix("warning http: urgent\n"))

        let small = try BufferedLogSink(path: directory.file("small.log"), flushInterval: .seconds(3600), bufferBytes: 100)
        let smallLogger = Logger(label: "x", sink: small)
        for index in 0..<10 { smallLogger.info("line \(index)") }
        let written = (try? String(contentsOfFile: directory.file("small.log"), encoding: .utf8)) ?? ""
        #expect(written.split(separator: "\n").count >= 8)
    }

    @Test("a log file that cannot be opened is reported with its path")
    func unopenable() {
        let error = #expect(throws: LogFileError.self) { try BufferedLogSink(path: "/nonexistent-dir/x.log") }
        #expect(error?.description.contains("/nonexistent-dir/x.log") == true)
    }
}
