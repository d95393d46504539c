import Foundation
import ModuleKit
import Testing

/// The kit reads the environment from `environ` itself: the same variables as Foundation's,
/// read live (a variable set after start is seen).
@Suite struct ProcessEnvironmentTests {
    @Test func theVariablesAreFoundationsAndReadLive() {
        #expect(ProcessEnvironment.variables == ProcessInfo.processInfo.environment)
        let name = "MODHOST_TEST_\(UInt32.random(in: 0...UInt32.max))"
        #expect(ProcessEnvironment.value(name) == nil)
        setenv(name, "a=b é", 1)
        defer { unsetenv(name) }
        #expect(ProcessEnvironment.value(name) == "a=b é")
        #expect(ProcessEnvironment.variables[name] == "a=b é", "the value keeps every '=' after the first")
        setenv(name, "", 1)
        #expect(ProcessEnvironment.value(name) == "")
        #expect(ProcessEnvironment.variables[name] == "")
    }
}
