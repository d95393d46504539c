import Foundation
import Testing

@testable import HostLifecycle

/// `modules --json --timing` gives milliseconds, whatever the duration: a phase of over a
/// second (a slow constructor) reads as its milliseconds, not as seconds and microseconds mixed.
@Suite struct ModuleTimingTests {
    @Test(arguments: [
        (Duration.milliseconds(1500), 1500.0), (.microseconds(2_345), 2.345), (.seconds(3) + .microseconds(7), 3000.007), (.zero, 0),
    ])
    func durationsAreGivenInMilliseconds(duration: Duration, milliseconds: Double) {
        #expect(ModuleTiming.milliseconds(duration) == milliseconds)
    }

    @Test func theDocumentSaysEachPhaseAndTheTotal() throws {
        var timing = ModuleTiming()
        timing.load = .milliseconds(1200)
        timing.start = .milliseconds(300)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(timing)) as? [String: Any])
        #expect(object["load"] as? Double == 1200)
        #expect(object["total"] as? Double == 1500)
        #expect(object["memoryBytes"] is NSNull)
    }
}
