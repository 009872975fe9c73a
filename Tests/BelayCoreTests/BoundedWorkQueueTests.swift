import BelayCore
import Foundation
import Synchronization
import Testing

/// The queues that draw images on request hold a bounded amount of work.
@Suite struct BoundedWorkQueueTests {
    @Test func workBeyondTheCapacityIsRefusedAtOnceAndAcceptedAgainOnceDone() {
        let queue = BoundedWorkQueue(name: "test", threads: 1, capacity: 2)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ran = Mutex(0)
        #expect(queue.submit {
            started.signal()
            release.wait()
            ran.withLock { $0 += 1 }
        })
        #expect(started.wait(timeout: .now() + 60) == .success)
        #expect(queue.submit { ran.withLock { $0 += 1 } }, "one may wait")
        #expect(!queue.submit { ran.withLock { $0 += 100 } }, "the third is refused")
        #expect(queue.count == 2)
        release.signal()
        queue.waitUntilIdle()
        #expect(ran.withLock { $0 } == 2)
        #expect(queue.count == 0)
        #expect(queue.submit { ran.withLock { $0 += 1 } })
        queue.waitUntilIdle()
        #expect(ran.withLock { $0 } == 3)
    }

    @Test func theCapacityIsAtLeastTheThreads() {
        #expect(BoundedWorkQueue(name: "test", threads: 4, capacity: 1).capacity == 4)
    }
}
