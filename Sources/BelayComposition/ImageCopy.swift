import BelayConfig
import BelayPipeline
import Foundation

/// Copies reward images between the directory under `data_directory` and the bucket of
/// `images.s3.*`, in either direction. Resumable and idempotent: an image the destination
/// already has is left alone, so a run cut short is finished by running it again, and a
/// second run copies nothing.
public struct ImageCopy: Sendable {
    /// Which way the images go.
    public enum Direction: String, Sendable, CaseIterable {
        /// From the directory into the bucket.
        case s3
        /// From the bucket into the directory.
        case directory
    }

    public let source: any RewardImageStore
    public let destination: any RewardImageStore

    public init(source: any RewardImageStore, destination: any RewardImageStore) {
        self.source = source
        self.destination = destination
    }

    /// The copy `direction` asks for between this club's directory and bucket.
    /// - Throws: `ApplicationError` naming the setting when the bucket cannot be reached.
    public init(configuration: BelayConfiguration, direction: Direction,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let directory = ImageStore(root: RenderPipelineSettings(configuration: configuration).imagesDirectory)
        let bucket = try ImageStorage.bucketStore(configuration, environment: environment)
        switch direction {
        case .s3: self.init(source: directory, destination: bucket)
        case .directory: self.init(source: bucket, destination: directory)
        }
    }

    /// Copies every image the destination lacks.
    /// - Parameter progress: called after each image with the number done and the total.
    /// - Throws: `ImageStoreError` when the source cannot be listed; an image that cannot be
    ///   copied is listed in the report's `errors` instead.
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws -> ImageCopyReport {
        var report = ImageCopyReport(from: source.location, to: destination.location)
        let images = try source.storedImages()
        for (index, image) in images.enumerated() {
            defer { progress(index + 1, images.count) }
            if destination.containsImage(digest: image.digest, fileExtension: image.fileExtension) {
                report.alreadyThere += 1
                continue
            }
            do {
                let bytes = try source.imageBytes(digest: image.digest, fileExtension: image.fileExtension)
                try destination.storeImage(bytes, digest: image.digest, fileExtension: image.fileExtension)
                report.copied += 1
                report.copiedBytes += Int64(bytes.count)
            } catch {
                report.errors.append("\(image.rowPath): \(error)")
            }
        }
        return report
    }
}
