import BelayPipeline
import Foundation
import Testing

/// An application built in-process (as the tests, and `belay` commands that serve, build one)
/// and then let go holds nothing for the rest of the process: the store keeps the handlers that
/// wake the workers after a commit, and a worker that the store kept would keep the store, and on
/// PostgreSQL its connections, open until the process ends (a run of the suites on PostgreSQL
/// then ran out of the cluster's connections).
@Suite struct ApplicationReleaseTests {
    @Test func aReleasedApplicationLetsItsWorkersAndStoreGo() throws {
        weak var workers: RenderWorkerPool?
        do {
            let fixture = try APIFixture()
            workers = fixture.application.workers
            _ = try fixture.member()
        }
        // Stopped workers' threads may hold the pool for a moment after the fixture is gone.
        let deadline = Date().addingTimeInterval(10)
        while workers != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(workers == nil, "the render workers outlived their application")
    }
}
