import Foundation
import BelayComposition
import BelayArguments
import BelayPipeline

extension CommandContext {
    /// The render pipeline over the command's domain services, with messages of the workers
    /// going to standard error.
    /// - Throws: `CommandLineError.failure` naming a render setting that cannot work.
    func pipeline(_ services: ClubServices) throws -> PipelineComponents {
        do {
            let images = try ImageStorage(configuration: services.configuration, registry: nil, environment: environment)
            return try PipelineComponents(configuration: services.configuration, domain: services.domain,
                                          log: { [errorOutput] line in errorOutput.write(line + "\n") }, imageStore: images.store)
        } catch let error as PipelineError {
            throw CommandLineError.failure(error.description)
        } catch let error as ApplicationError {
            throw CommandLineError.failure(error.description)
        }
    }
}
