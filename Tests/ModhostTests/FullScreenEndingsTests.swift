import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Ctrl-Z in a shell with job control: the shell gets its terminal back as it was (off the
/// alternate screen, line editing and echo on, no mouse reports), and `fg` brings the app
/// back, redrawn whole, where it was.
@Suite struct FullScreenSuspendTests {
    @Test func ctrlZGivesTheShellItsTerminalAndFgBringsTheAppBack() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", ""), ("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let shell = try TerminalProcess.start(
            "exec bash --norc --noprofile -i", environment: ["MODHOST_UI": "", "LANG": "en_US.UTF-8", "PS1": "shell> "])
        try shell.waitFor("shell>")
        shell.type("\(TestEnvironment.modhost) --config \(config) --data-dir \(data)\r")
        try shell.waitUntil(describing: "Home, full screen") { $0.isAlternate && $0.contains("Places") }
        shell.type("2")
        // (The session's program is the shell: the waits read the screen.)
        try shell.waitUntil(describing: "Settings") { $0.lines.first?.contains("Home › Settings") == true }
        shell.press(.control("z"))
        try shell.waitUntil(describing: "the shell's prompt") { !$0.isAlternate && $0.contains("Stopped") }
        #expect(!shell.screen.reportsMouse && !shell.screen.cursorHidden)
        shell.type("stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon | tr '\\n' ' '; echo\r")
        try shell.waitFor("icanon echo")
        shell.type("fg\r")
        let back = try shell.waitUntil(describing: "Settings again, full screen") {
            $0.isAlternate && $0.lines.first?.contains("Home › Settings") == true && $0.contains("Language")
        }
        #expect(back.reportsMouse, "the mouse is the app's again")
        shell.type("q")
        try shell.waitUntil(describing: "the app ended") { !$0.isAlternate && $0.contains("Goodbye.") }
        shell.type("exit\r")
        _ = try shell.waitForExit()
    }
}

/// SIGTERM from outside ends the app on a path that never comes back to the app's code: the
/// guard puts the screen back there, as it does when its watchdog ends a host that did not
/// stop within a second of a signal (`theTerminalIsRestoredOnEveryWayOut`, "watchdog").
@Suite struct FullScreenEndingsTests {
    @Test func sigtermLeavesTheAlternateScreen() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")])
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(fullScreen: true)
        try app.waitUntil(describing: "Home, full screen") { $0.isAlternate && $0.contains("Places") }
        app.send(signal: SIGTERM)
        let ended = try app.waitForExit()
        #expect(ended.status == 128 + SIGTERM || ended.signal == SIGTERM, "\(ended)")
        #expect(!app.screen.isAlternate && !app.screen.cursorHidden, "the screen is the shell's again")
    }
}
