import BelayArguments
import BelayCore
import BelayRender
import Foundation

/// How `belay render sticker|story` times what it draws, for trying an artwork or a text and
/// for `bench/render` and `bench/backfill`: one cold render (reading and decoding the
/// artwork, loading fonts), then `--repeat` warm ones, wall and CPU time, and with `--json`
/// the report those benchmarks read (`median_ms`, `cpu_ms`, `cold_ms`, the labels' layout).
struct RenderBenchmark {
    /// Warm renders after the cold one (`--repeat`).
    let repeatCount: Int
    /// Print the report as JSON (`--json`); with it, warm renders run even for `--repeat 1`.
    let json: Bool

    /// Renders once cold (reading and decoding the artwork, loading fonts), then
    /// `repeatCount` times warm, writes the image and reports.
    /// - Parameter companion: another image the last render made and where it goes (the
    ///   sticker of `story --sticker-out`); written first, so a report is only printed
    ///   once every file is written.
    /// - Parameter out: where the image goes (relative to the working directory).
    /// - Parameter placeLayout: with `--json`, measures the place label's layout (in a
    ///   renderer of its own, so the first layout opens its fonts).
    func run(_ context: CommandContext, out: String, companion: () -> (image: RenderedImage, path: String)? = { nil },
             placeLayout: (() throws -> (first: Double, warm: Double))? = nil,
             render: () throws -> RenderedImage) throws {
        var start = DispatchTime.now()
        var image = try render()
        let cold = Self.milliseconds(since: start)
        var times: [Double] = []
        var cpuTimes: [Double] = []
        if repeatCount > 1 || json {
            for _ in 0..<repeatCount {
                start = DispatchTime.now()
                let cpuStart = Self.processCPUMilliseconds()
                image = try render()
                times.append(Self.milliseconds(since: start))
                cpuTimes.append(Self.processCPUMilliseconds() - cpuStart)
            }
        }
        for warning in image.warnings { context.note("Warning: \(warning)") }
        if let companion = companion() {
            try Self.write(companion.image, to: companion.path)
            if !json {
                let image = companion.image
                context.note("Wrote \(companion.path): \(image.width)x\(image.height), \(image.bytes.count) bytes.")
            }
        }
        let path = context.absolutePath(out)
        try Self.write(image, to: path)
        times.sort()
        cpuTimes.sort()
        let median = times.isEmpty ? cold : times[times.count / 2]
        if json {
            let layout = try placeLayout?()
            try context.printJSON(Report(
                medianMs: Self.rounded(median), minMs: Self.rounded(times.first ?? cold), coldMs: Self.rounded(cold),
                cpuMs: Self.rounded(cpuTimes.isEmpty ? 0 : cpuTimes[cpuTimes.count / 2]),
                bytes: image.bytes.count, width: image.width, height: image.height, repeat: times.count, out: path,
                labels: image.labels.map(LabelOutput.init), placeLayoutUs: layout.map { LayoutTiming(first: Self.rounded($0.first), warm: Self.rounded($0.warm)) }))
        } else {
            let timing = times.isEmpty
                ? String(format: "%.1f ms", cold)
                : String(format: "median %.1f ms, min %.1f ms over %d renders (first %.1f ms)", median, times.first!, times.count, cold)
            context.note("Wrote \(path): \(image.width)x\(image.height), \(image.bytes.count) bytes; \(timing).")
        }
    }

    /// - Throws: `CommandLineError.failure` naming the file when it cannot be written.
    static func write(_ image: RenderedImage, to path: String) throws {
        do {
            try AtomicFile.write(image.bytes, to: path)
        } catch {
            throw CommandLineError.cannotWrite(path, error)
        }
    }

    struct Report: Encodable {
        /// Wall-clock milliseconds per render: median, fastest, and the first (cold) render.
        let medianMs: Double, minMs: Double, coldMs: Double
        /// Median CPU milliseconds per render, all threads together.
        let cpuMs: Double
        let bytes: Int, width: Int, height: Int, `repeat`: Int, out: String
        /// How each label was set: runs and their fonts, lines, shrunk/wrapped/ellipsised,
        /// characters no font has.
        let labels: [LabelOutput]
        /// Microseconds to lay out the place label: first in a fresh renderer, then warm.
        let placeLayoutUs: LayoutTiming?
    }

    struct LayoutTiming: Encodable {
        let first: Double, warm: Double
    }

    static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    }

    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    static func processCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }
}
