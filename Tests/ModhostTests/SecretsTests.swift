import Foundation
import ModuleHostTesting
import ModuleKitTesting
import TestSupport
import Testing

/// Secrets and the data folder, attacked as a second local account would.
@Suite struct SecretsTests {
    typealias App = AuthFlowTests.App

    func register(_ app: App) throws {
        let result = try app.run(
            ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"], input: "secret12!\nsecret12!\n")
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Runs `command` (argv) as nobody when the test runs as root, else as the test's user.
    func asAttacker(_ command: [String]) throws -> ProcessResult {
        if geteuid() == 0 {
            return try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + command)
        }
        return try ChildProcess.run(command[0], Array(command.dropFirst()))
    }

    @Test func aSymlinkedOutboxTakesNoTokenOut() throws {
        let app = try App()
        try register(app)
        // The attacker's file, and a link to it planted in a module folder left open to all.
        let drop = try TestEnvironment.temporaryFolder()
        chmod(drop, 0o777)
        let stolen = drop + "/stolen.txt"
        #expect(try asAttacker(["/usr/bin/touch", stolen]).status == 0)
        chmod(stolen, 0o666)
        chmod(app.data, 0o777)
        chmod(app.data + "/Auth", 0o777)
        unlink(app.data + "/Auth/outbox.txt")
        #expect(try asAttacker(["/bin/ln", "-s", stolen, app.data + "/Auth/outbox.txt"]).status == 0)

        let request = try app.run(["auth", "reset-password", "--email", "ann@example.com"])
        #expect(request.status == 1)
        #expect(
            request.stderr
                == "modhost: error: module 'Auth' is not active: it failed: threw in register: '\(app.data)/Auth/outbox.txt' is a symlink; a module's data is never reached through one, so it is refused — remove it\n"
        )
        #expect(try String(contentsOfFile: stolen, encoding: .utf8) == "", "no token left the folder")
        var status = stat()
        lstat(app.data + "/Auth", &status)
        #expect(status.st_mode & 0o777 == 0o700, "the folder was tightened")
        lstat(app.data, &status)
        #expect(status.st_mode & 0o777 == 0o700, "and the data folder")
    }

    @Test func aTokenOnTheCommandLineIsRefusedAndStdinWorks() throws {
        let app = try App()
        try register(app)
        #expect(try app.run(["auth", "reset-password", "--email", "ann@example.com"]).status == 0)
        let token = try #require(app.lastToken)
        let refused = try app.run(["auth", "reset-password", "--token", token, "--password-stdin"], input: "brandnew7!\nbrandnew7!\n")
        #expect(refused.status == 2)
        #expect(
            refused.errorLines.first
                == "modhost: error: auth reset-password: The reset token is never given on the command line, where every user can read it (ps): type it when asked, or pass --token-stdin and write it on standard input."
        )
        let noTerminal = try app.run(["auth", "reset-password"])
        #expect(noTerminal.status == 2)
        #expect(
            noTerminal.errorLines.first
                == "modhost: error: auth reset-password: No terminal to ask for the reset token: pass --token-stdin and write it on standard input."
        )
        let reset = try app.run(
            ["auth", "reset-password", "--token-stdin", "--password-stdin"], input: "\(token)\nbrandnew7!\nbrandnew7!\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        let login = try app.run(["auth", "login", "--email", "ann@example.com", "--password-stdin"], input: "brandnew7!\n")
        #expect(login.status == 0)
    }

    @Test func theTokenIsAskedWithoutEchoOnATerminal() throws {
        let app = try App()
        try register(app)
        #expect(try app.run(["auth", "reset-password", "--email", "ann@example.com"]).status == 0)
        let token = try #require(app.lastToken)
        // On a pseudo-terminal: the token, then the new password twice, all typed unseen.
        // exec: the program itself on the terminal, so that `answer` sees it read.
        let command = "exec \(TestEnvironment.modhost) --config \(app.config) auth reset-password"
        let terminal = try TerminalProcess.start(command, environment: ["MODHOST_DATA_DIR": app.data])
        for (prompt, line) in [("Reset token", token), ("New password", "brandnew7!"), ("Confirm password", "brandnew7!")] {
            try terminal.waitFor(prompt, timeout: .seconds(60))
            // Typed once the program reads, echo off: a line typed as the prompt shows would
            // be echoed by the terminal before the program turns echo off.
            try terminal.answer(line, timeout: .seconds(60))
        }
        _ = try terminal.waitForExit(timeout: .seconds(60))
        let seen = terminal.screen.transcript
        #expect(!seen.contains(token), "the token is not echoed")
        #expect(!seen.contains("brandnew7!"))
        #expect(seen.contains("Password changed. Log in with the new one."), "\(seen)")
        let login = try app.run(["auth", "login", "--email", "ann@example.com", "--password-stdin"], input: "brandnew7!\n")
        #expect(login.status == 0)
    }

    @Test func aServerEchoingTheRequestGetsNoKeyIntoAnyOutputEvenAtTrace() throws {
        let key = "K3Y-SUPERSECRET-123456"
        // A server that answers every request with its own target, key included, as a 400.
        let server = try LoopbackHTTPServer { target in
            LoopbackHTTPServer.Response(status: 400, body: Array("[ERROR 400] bad request: GET \(target)\nAuthorization: Bearer xyz".utf8))
        }
        defer { server.stop() }
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([
                ("Photos", #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "\#(key)"}"#)
            ]))
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "--log-level", "trace", "photos", "search", "cats"],
            environment: ["MODHOST_DATA_DIR": try TestEnvironment.temporaryFolder()])
        #expect(result.status == 1)
        #expect(server.received.contains { $0.contains("key=\(key)") }, "the key was really sent")
        #expect(!(result.stdout + result.stderr).contains(key))
        #expect(!(result.stdout + result.stderr).contains("xyz"))
        #expect(result.stderr.contains("refused (HTTP 400): bad request: GET /api/?key=***&q=cats&lang=en"), "\(result.stderr)")
    }

    @Test func credentialsInABaseURLArePrintedRedacted() throws {
        // Nothing listens on port 9 of loopback: the connection is refused at once.
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([
                ("Photos", #""config": {"source": "pixabay", "baseURL": "http://ann:pa55w0rd@127.0.0.1:9/api/", "apiKey": "KEYKEYKEY"}"#)
            ]))
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "--log-level", "trace", "photos", "search", "cats"],
            environment: ["MODHOST_DATA_DIR": try TestEnvironment.temporaryFolder()])
        #expect(result.status == 1)
        #expect(!(result.stdout + result.stderr).contains("pa55w0rd"))
        #expect(!(result.stdout + result.stderr).contains("ann:"))
        #expect(result.stderr.contains("http://***@127.0.0.1:9/api/"), "\(result.stderr)")
    }
}
