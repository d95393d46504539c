import Contracts
import ModuleKit
import ModuleKitTesting
import Testing

@testable import AuthFeature

/// Auth as the host runs it, without the host: the harness registers and starts the module.
@MainActor
@Suite struct AuthModuleTests {
    @Test func commandsRegisterAndReportTheUser() throws {
        let harness = ModuleTestHarness(AuthModule.self, input: ["secret12!", "secret12!"])
        try harness.start()
        try harness.run("register", ["--email", "ann@example.com", "--name", "Ann", "--password-stdin"])
        try harness.run("whoami", ["--json"])
        #expect(harness.terminal.output.hasSuffix("{\"schemaVersion\":1,\"user\":{\"email\":\"ann@example.com\",\"name\":\"Ann\"}}\n"))
        let auth = try harness.resolve((any AuthRoute).self)
        #expect(auth.currentUser == AuthUser(email: "ann@example.com", name: "Ann"))
        try harness.run("logout")
        #expect(auth.currentUser == nil)
        #expect(throws: (any Error).self) { try harness.run("whoami") }
    }

    @Test func passwordsNeverComeFromTheCommandLine() throws {
        let harness = ModuleTestHarness(AuthModule.self)
        try harness.start()
        #expect(throws: CommandUsageError.self) { try harness.run("login", ["--email", "a@b.co", "--password", "x"]) }
        // No TTY and no --password-stdin: a usage error that says what to do.
        let error = #expect(throws: CommandUsageError.self) { try harness.run("login", ["--email", "a@b.co"]) }
        #expect(error?.message == "No terminal to ask for the password: pass --password-stdin and write it on standard input.")
    }

    @Test func resetPasswordNeedsEitherEmailOrToken() throws {
        let harness = ModuleTestHarness(AuthModule.self)
        try harness.start()
        #expect(throws: CommandUsageError.self) { try harness.run("reset-password", []) }
        #expect(throws: CommandUsageError.self) { try harness.run("reset-password", ["--email", "a@b.co", "--token", "t"]) }
    }

    @Test func theLogInFlowRunsOnTheNavigatorAndReportsTheUser() throws {
        let harness = ModuleTestHarness(
            AuthModule.self,
            input: ["ann@example.com", "Ann", "secret12!", "secret12!", "ann@example.com", "bad-pass1", "ann@example.com", "secret12!"])
        try harness.start()
        let auth = try harness.resolve((any AuthRoute).self)
        auth.presentRegistration { _ in }
        harness.run(EmptyScreen())
        try auth.logOut()
        let seen = LoggedIn()
        auth.presentLogIn { user in seen.set(user) }
        harness.run(EmptyScreen())
        #expect(seen.user == AuthUser(email: "ann@example.com", name: "Ann"))
        #expect(harness.terminal.output.contains("! Wrong email or password."))
        #expect(harness.terminal.output.contains("Welcome back, Ann."))
    }
}

/// A root screen that only pops, so the presented flow is what runs.
final class EmptyScreen: Screen {
    func show(_ ui: TerminalUI) -> Navigation { .pop }
}

/// What a completion saw (on the main actor, as completions run).
final class LoggedIn {
    private(set) var user: AuthUser?
    func set(_ user: AuthUser?) { self.user = user }
}
