import ModuleKit
import Synchronization
import Testing

@Suite struct LoggerTests {
    @Test func writesOnlyAtOrAboveTheMinimumLevel() {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "Geo", minimumLevel: .warn) { line in lines.withLock { $0.append(line) } }
        logger.info("hidden")
        logger.warn("shown")
        logger.critical("also shown")
        #expect(lines.withLock { $0 } == ["modhost: warn: Geo: shown\n", "modhost: critical: Geo: also shown\n"])
    }

    @Test func doesNotBuildHiddenMessages() {
        let built = Atomic(false)
        let logger = Logger(label: "Geo", minimumLevel: .error) { _ in }
        logger.debug(
            {
                built.store(true, ordering: .relaxed); return "expensive"
            }())
        let wasBuilt = built.load(ordering: .relaxed)
        #expect(!wasBuilt)
    }

    @Test(arguments: LogLevel.allCases)
    func levelNamesRoundTrip(level: LogLevel) {
        #expect(LogLevel(rawValue: level.rawValue) == level)
    }

    @Test func levelsAreOrderedTraceToCritical() {
        #expect(LogLevel.allCases.map(\.rawValue) == ["trace", "debug", "info", "warn", "error", "critical"])
        #expect(LogLevel.trace < LogLevel.critical)
        #expect(LogLevel(rawValue: "verbose") == nil)
    }
}
