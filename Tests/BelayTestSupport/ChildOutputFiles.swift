import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files a child process writes its standard output and error to, and reads its
/// standard input from, in place of pipes.
///
/// A child that another test starts at the same moment can inherit a pipe's end. Reading a
/// pipe to its end then waits for that child as well, and a child reading its input waits
/// for it to close the writing end: tests hung so, each waiting for the other's child. A
/// file is read when the child has exited, whoever else holds it open.
public struct ChildOutputFiles {
    private let directory: TemporaryDirectory
    private let output: FileHandle
    private let errors: FileHandle
    private let input: FileHandle

    /// Makes the files, the input file holding `input` (empty when nil).
    /// - Throws: when a file cannot be made.
    private init(input: Data?, for tool: String) throws {
        directory = try TemporaryDirectory(prefix: "belay-child-output")
        let paths = ["stdout", "stderr", "stdin"].map(directory.file)
        for (path, contents) in zip(paths, [Data(), Data(), input ?? Data()]) {
            guard FileManager.default.createFile(atPath: path, contents: contents) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "Cannot make the output files of \(tool) in \(directory.path)"])
            }
        }
        guard let output = FileHandle(forWritingAtPath: paths[0]), let errors = FileHandle(forWritingAtPath: paths[1]),
              let input = FileHandle(forReadingAtPath: paths[2]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "Cannot open the output files of \(tool) in \(directory.path)"])
        }
        (self.output, self.errors, self.input) = (output, errors, input)
    }

    /// Gives `process` the files as its standard output, error and input.
    private func attach(to process: Process) {
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
    }

    /// What the child wrote, once it has exited; closes this side's handles.
    private func collect() -> (standardOutput: String, standardError: String) {
        for handle in [output, errors, input] { try? handle.close() }
        let read = { (name: String) in
            String(decoding: FileManager.default.contents(atPath: directory.file(name)) ?? Data(), as: UTF8.self)
        }
        return (read("stdout"), read("stderr"))
    }

    /// Runs `process` (set up but not started) on `input` with its output going to files,
    /// sending it `stopSignal` should it still run after `timeout` seconds.
    /// - Returns: what it wrote, once it has exited (its status is on `process`).
    /// - Throws: when the files cannot be made or the process cannot start.
    public static func run(_ process: Process, input: Data?, timeout: TimeInterval, stopSignal: Int32) throws
        -> (standardOutput: String, standardError: String) {
        let name = process.executableURL?.lastPathComponent ?? "a child"
        let files = try ChildOutputFiles(input: input, for: name)
        files.attach(to: process)
        do {
            try process.run()
        } catch {
            _ = files.collect()
            throw error
        }
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, stopSignal) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        return files.collect()
    }
}
