/// Everything that can go wrong while rendering: bad input files, missing fonts, failed encoders,
/// unusable requests. Messages name the input and say what to do next.
public struct RenderError: Error, CustomStringConvertible, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case unreadableFile(path: String, reason: String)
        case emptyFile(path: String)
        case fileTooLarge(path: String, bytes: Int, limit: Int)
        case notAnImage(path: String)
        case truncatedImage(path: String, format: String, detail: String)
        case corruptImage(path: String, format: String, detail: String)
        case emptyImage(path: String, width: Int, height: Int)
        case imageTooWide(path: String, width: Int, height: Int, limit: Int)
        case imageTooManyBytes(path: String, width: Int, height: Int, bytes: Int, limit: Int)
        case encodingFailed(format: String, detail: String)
        case fontUnavailable(role: String, path: String, detail: String)
        case invalidRequest(detail: String)
        case writeFailed(path: String, reason: String)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// A stable, machine-readable name for the kind of failure, e.g. `image_truncated`, for
    /// storing as a render job's failure reason.
    public var code: String {
        switch kind {
        case .unreadableFile: "file_unreadable"
        case .emptyFile: "file_empty"
        case .fileTooLarge: "file_too_large"
        case .notAnImage: "not_an_image"
        case .truncatedImage: "image_truncated"
        case .corruptImage: "image_corrupt"
        case .emptyImage: "image_empty"
        case .imageTooWide: "image_too_large"
        case .imageTooManyBytes: "image_too_many_bytes"
        case .encodingFailed: "encoding_failed"
        case .fontUnavailable: "font_unavailable"
        case .invalidRequest: "invalid_request"
        case .writeFailed: "write_failed"
        }
    }

    /// Whether the failure is caused by an input file (artwork or font) rather than by the
    /// machine; retrying without replacing the file gives the same answer.
    public var isBadInput: Bool {
        switch kind {
        case .unreadableFile, .encodingFailed, .writeFailed: false
        default: true
        }
    }

    public var description: String {
        switch kind {
        case let .unreadableFile(path, reason):
            "Cannot read '\(path)': \(reason). Check that the file exists and is readable."
        case let .emptyFile(path):
            "'\(path)' is empty (0 bytes). Replace it with a PNG or JPEG image."
        case let .fileTooLarge(path, bytes, limit):
            "'\(path)' is \(bytes) bytes, more than the \(limit)-byte limit for images. "
                + "Use a smaller image or raise render.max_decoded_bytes."
        case let .notAnImage(path):
            "'\(path)' is not a PNG or JPEG image. Convert it to PNG (or JPEG for opaque backgrounds)."
        case let .truncatedImage(path, format, detail):
            "'\(path)' is a truncated \(format) (\(detail)). Copy or export the file again."
        case let .corruptImage(path, format, detail):
            "'\(path)' is a corrupt \(format) (\(detail)). Export the image again."
        case let .emptyImage(path, width, height):
            "'\(path)' has no pixels (\(width)x\(height)). Replace it with a real image."
        case let .imageTooWide(path, width, height, limit):
            "'\(path)' is \(width)x\(height) px, more than \(limit) px on a side. "
                + "Scale it down or raise render.max_image_side."
        case let .imageTooManyBytes(path, width, height, bytes, limit):
            "'\(path)' is \(width)x\(height) px, \(bytes) bytes decoded, more than the "
                + "\(limit)-byte limit. Scale it down or raise render.max_decoded_bytes."
        case let .encodingFailed(format, detail):
            "Encoding the \(format) failed: \(detail)."
        case let .fontUnavailable(role, path, detail):
            "The \(role) font '\(path)' cannot be used: \(detail). Install the font package "
                + "(see scripts/install-deps) or fix the path in config.json `fonts`."
        case let .invalidRequest(detail):
            "Invalid render request: \(detail)."
        case let .writeFailed(path, reason):
            "Cannot write '\(path)': \(reason). Check the directory exists and is writable."
        }
    }
}
