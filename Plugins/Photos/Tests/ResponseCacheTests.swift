import Foundation
import ModuleKit
import PhotosDomain
import Synchronization
import Testing

@testable import PhotosFeature

/// The API's answers are kept 24 hours, as its terms ask, and not a second longer: the test
/// moves the cache's clock instead of waiting.
@Suite struct ResponseCacheTests {
    final class Clock: Sendable {
        private let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var date: Date { now.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    @Test func anAnswerIsServedForADayThenForgotten() throws {
        let clock = Clock()
        let folder = try storageFolder()
        // The file's age counts from when it was written: write it "now" on the real clock,
        // and start the test clock there.
        let written = Date()
        clock.advance(written.timeIntervalSince(clock.date))
        let cache = ResponseCache(folder: folder) { clock.date }
        cache.put("q=cats&page=1", Array("answer".utf8))
        #expect(cache.get("q=cats&page=1") == Array("answer".utf8))
        clock.advance(ResponseCache.lifetime - 60)
        #expect(cache.get("q=cats&page=1") == Array("answer".utf8), "still fresh a minute before the day ends")
        clock.advance(120)
        #expect(cache.get("q=cats&page=1") == nil, "a day and a minute later it is not served")
        #expect(cache.get("q=dogs&page=1") == nil)
    }
}
