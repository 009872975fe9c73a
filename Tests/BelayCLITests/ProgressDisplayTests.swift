import BelayArguments
@testable import BelayCommandLine
import BelayCore
import Foundation
import Synchronization
import Testing

@Suite struct ProgressDisplayTests {
    final class Captured: Sendable {
        let text = Mutex("")
        var sink: TextSink { TextSink { piece in self.text.withLock { $0 += piece } } }
        var value: String { text.withLock { $0 } }
    }

    @Test func plainLinesComeAtEachTenthNotAtEveryItem() {
        let captured = Captured()
        let display = ProgressDisplay(sink: captured.sink, isTerminal: false)
        for done in 0...40 { display.update(phase: "rendering", completed: done, total: 40, failed: done >= 20 ? 1 : 0) }
        display.finish()
        let lines = captured.value.split(separator: "\n").map(String.init)
        #expect(lines.count == 11, "0%, 10%, … 100%: \(lines)")
        #expect(lines.first?.hasPrefix("rendering 0/40 (0%)") == true)
        #expect(lines.last?.hasPrefix("rendering 40/40 (100%)") == true)
        #expect(lines.last?.contains("1 failed") == true)
        #expect(!captured.value.contains("\r"), "no terminal control characters in logs")
    }

    @Test func aTerminalGetsOneBarRedrawnInPlace() {
        let captured = Captured()
        let display = ProgressDisplay(sink: captured.sink, isTerminal: true)
        display.update(phase: "awarding", completed: 0, total: 10, failed: 0)
        display.update(phase: "awarding", completed: 10, total: 10, failed: 0)
        display.update(phase: "rendering", completed: 0, total: 4, failed: 0)
        display.finish()
        let text = captured.value
        #expect(text.contains("\r\u{1B}[2K[------------------------] awarding 0/10 (0%)"))
        #expect(text.contains("[########################] awarding 10/10 (100%)"))
        #expect(text.contains("rendering 0/4 (0%)"))
        #expect(text.hasSuffix("\n"), "the bar's line is ended before anything else is printed")
        #expect(text.components(separatedBy: "\n").count == 3)
    }

    @Test func rateAndTimeLeft() {
        #expect(ProgressDisplay.summary("rendering", 50, 200, 0, 10) == "rendering 50/200 (25%), 5.0/s, ETA 0:30")
        #expect(ProgressDisplay.summary("rendering", 200, 200, 2, 40) == "rendering 200/200 (100%), 5.0/s, 2 failed")
        #expect(ProgressDisplay.duration(3_723) == "1:02:03")
        #expect(ProgressDisplay.duration(45) == "0:45")
    }

    @Test func aSlowPhaseStillPrintsEveryTenSecondsOnItsClock() {
        let captured = Captured()
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 0))
        let display = ProgressDisplay(sink: captured.sink, isTerminal: false, clock: clock)
        display.update(phase: "rendering", completed: 1, total: 1_000, failed: 0)
        clock.advance(by: 9)
        display.update(phase: "rendering", completed: 2, total: 1_000, failed: 0)
        clock.advance(by: 1)
        display.update(phase: "rendering", completed: 3, total: 1_000, failed: 0)
        let lines = captured.value.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last == "rendering 3/1000 (0%), 0.3/s, ETA 55:24")
    }
}
