import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The Auth module and the app shell, driven through the real binary with piped input.
@Suite struct AuthFlowTests {
    /// A world of ModuleHostTesting with Auth, shared by every command of one test.
    struct App {
        let host: TestHost
        var config: String { host.config }
        var data: String { host.data }

        init(authEnabled: Bool = true) throws {
            host = try TestHost(entries: [("Auth", authEnabled ? "" : #""enabled": false"#)])
        }

        func run(_ arguments: [String], input: String = "", inputBytes: [UInt8]? = nil) throws -> CommandResult {
            try host.run(arguments: arguments, input: input, inputBytes: inputBytes)
        }

        func start(_ arguments: [String] = []) throws -> RunningProgram {
            try host.start(arguments: arguments)
        }

        var outbox: String { (try? String(contentsOfFile: data + "/Auth/outbox.txt", encoding: .utf8)) ?? "" }

        var lastToken: String? {
            outbox.split(separator: "\n").last { $0.contains("token is: ") }.map { String($0.split(separator: " ").last ?? "") }
        }
    }

    @Test func registerLogOutLogInWhoamiResetAndLogInWithTheNewPassword() throws {
        let app = try App()
        // Welcome → Register → Home → l (Log out), 1 (Continue) → Welcome → Log in → Home → q.
        let session = try app.run(
            [],
            input: [
                "2", "ann@example.com", "Ann", "secret12!", "secret12!",
                "l", "1",
                "1", "ann@example.com", "secret12!",
                "q",
            ].joined(separator: "\n") + "\n")
        #expect(session.status == 0)
        #expect(session.stderr == "")
        #expect(session.stdout.contains("Account created. Welcome, Ann."))
        #expect(session.stdout.contains("Logged in as Ann <ann@example.com>"))
        #expect(session.stdout.contains("  l Log out · q Quit\n"))
        #expect(session.stdout.contains("Log out\n=======\nAre you sure you want to log out?\n  1. Continue\n  0 Cancel\n"))
        #expect(session.stdout.contains("Which one? Logged out.\n"))
        #expect(session.stdout.contains("Welcome back, Ann."))
        #expect(session.stdout.hasSuffix("Goodbye.\n"))

        // The current user survived the restart.
        let whoami = try app.run(["auth", "whoami", "--json"])
        #expect(whoami.status == 0)
        #expect(whoami.stdout == "{\"schemaVersion\":1,\"user\":{\"email\":\"ann@example.com\",\"name\":\"Ann\"}}\n")

        let request = try app.run(["auth", "reset-password", "--email", "ann@example.com"])
        #expect(request.status == 0)
        #expect(request.stdout == "If an account exists for ann@example.com, a reset message is in \(app.data)/Auth/outbox.txt.\n")
        let token = try #require(app.lastToken)
        let reset = try app.run(
            ["auth", "reset-password", "--token-stdin", "--password-stdin"], input: "\(token)\nbrandnew7!\nbrandnew7!\n")
        #expect(reset.status == 0)
        #expect(reset.stdout == "Password changed. Log in with the new one.\n")
        let reused = try app.run(
            ["auth", "reset-password", "--token-stdin", "--password-stdin"], input: "\(token)\nanother7!\nanother7!\n")
        #expect(reused.status == 1)
        #expect(reused.stderr == "modhost: error: auth reset-password: That reset token is not valid or was already used.\n")

        #expect(try app.run(["auth", "logout"]).stdout == "Logged out.\n")
        #expect(try app.run(["auth", "logout"]).stdout == "Nobody was logged in.\n")
        let nobody = try app.run(["auth", "whoami"])
        #expect(nobody.status == 1)
        #expect(nobody.stderr == "modhost: error: auth whoami: Nobody is logged in.\n")
        let old = try app.run(["auth", "login", "--email", "ann@example.com", "--password-stdin"], input: "secret12!\n")
        #expect(old.status == 1)
        #expect(old.stderr == "modhost: error: auth login: Wrong email or password.\n")
        let new = try app.run(["auth", "login", "--email", "ANN@example.com", "--password-stdin"], input: "brandnew7!\n")
        #expect(new.status == 0)
        #expect(new.stdout == "Welcome back, Ann.\n")
    }

    @Test func withAuthDisabledHomeOpensDirectly() throws {
        let app = try App(authEnabled: false)
        let result = try app.run([], input: "q\n")
        #expect(result.status == 0)
        #expect(!result.stdout.contains("Welcome\n"))
        #expect(!result.stdout.contains("Log out"))
        #expect(result.stdout.contains("Home\n====\nNo module adds anything here yet.\n  q Quit\n"))
        let command = try app.run(["auth", "whoami"])
        #expect(command.status == 1)
        #expect(
            command.stderr
                == "modhost: error: module 'Auth' is not active: disabled in modules.json; enable it in modules.json or with --enable Auth\n"
        )
    }

    @Test func theAppSpeaksTheLocaleOfLang() throws {
        let app = try App()
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", app.config], input: "2\nann@example.com\nAnn\nsecret12!\nsecret12?\n",
            environment: ["MODHOST_DATA_DIR": app.data, "LANG": "fr_FR.UTF-8"])
        #expect(result.stdout.contains("Bienvenue\n"))
        #expect(result.stdout.contains("  2. S'inscrire\n"))
        #expect(result.stdout.contains("! Les mots de passe ne correspondent pas."))
    }

    @Test func fourProcessesRegisteringOneEmailAtOnceOneWins() throws {
        let app = try App()
        let processes = try (0..<4).map { _ in
            try app.start(["auth", "register", "--email", "race@example.com", "--name", "Racer", "--password-stdin"])
        }
        for process in processes {
            process.write("secret12!\nsecret12!\n")
            process.closeInput()
        }
        let results = try processes.map { try $0.wait() }
        #expect(results.map { $0.status ?? -1 }.sorted() == [0, 1, 1, 1])
        for loser in results where loser.status == 1 {
            #expect(loser.stderr == "modhost: error: auth register: An account with this email already exists.\n")
        }
        #expect(
            try app.run(["auth", "whoami", "--json"]).stdout
                == "{\"schemaVersion\":1,\"user\":{\"email\":\"race@example.com\",\"name\":\"Racer\"}}\n")
    }

    @Test func garbageGetsAMessageAndLosesNothing() throws {
        let app = try App()
        _ = try app.run(
            ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"], input: "secret12!\nsecret12!\n")
        _ = try app.run(["auth", "logout"])
        let huge = String(repeating: "a", count: 1_000_000)
        var bytes: [UInt8] = []
        // Register: an empty line (goes back); then a 1 MB email, invalid UTF-8 and SQL as the
        // email, each refused right away and asked again, then an empty line (back).
        bytes += Array("2\n\n2\n\(huge)@x.io\n".utf8)
        bytes += [0xFF, 0xFE, 0x40, 0x61, 0x2E, 0x62, 0x0A]
        bytes += Array("x@y.zz'; DROP TABLE user; --\n\n".utf8)
        // A name that is SQL is stored as text; then log out.
        bytes += Array("2\nbobby@example.com\nBobby'); DROP TABLE user;--\nsecret12!\nsecret12!\nl\n1\n".utf8)
        // Log in with garbage, back, then quit.
        bytes += Array("1\n' OR '1'='1\n' OR '1'='1\n\nq\n".utf8)
        let result = try app.run([], inputBytes: bytes)
        #expect(result.status == 0)
        #expect(result.stdout.contains("! Email is too long (at most 254 characters)."))
        #expect(result.stdout.contains("! That email address is not valid."))
        #expect(result.stdout.contains("! Wrong email or password."))
        #expect(result.stdout.contains("Account created. Welcome, Bobby'); DROP TABLE user;--."))
        // Nothing stored was lost: the first account still logs in.
        let login = try app.run(["auth", "login", "--email", "ann@example.com", "--password-stdin"], input: "secret12!\n")
        #expect(login.status == 0)
    }

    @Test func anAcknowledgedRegistrationSurvivesKill9() throws {
        let app = try App()
        let process = try app.start()
        process.write("2\nkill@example.com\nKill\nsecret12!\nsecret12!\n")
        try process.waitForOutput(containing: "Account created. Welcome, Kill.")
        process.send(SIGKILL)
        _ = try process.wait()
        let whoami = try app.run(["auth", "whoami", "--json"])
        #expect(whoami.stdout == "{\"schemaVersion\":1,\"user\":{\"email\":\"kill@example.com\",\"name\":\"Kill\"}}\n")
    }
}
