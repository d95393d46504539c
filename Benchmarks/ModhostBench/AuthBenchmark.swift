import AuthFeature
import Foundation
import ModuleKit

/// Auth: the password hash at each yescrypt cost (the chosen cost should take 50–250 ms),
/// every other Auth operation (should be under 5 ms), and the app's start-up to the Welcome
/// screen against `modhost modules` on the same modules.json.
@MainActor
struct AuthBenchmark {
    let rounds: Int

    func run(into report: BenchReport) {
        hashing(into: report)
        operations(into: report)
        startup(into: report)
    }

    private func hashing(into report: BenchReport) {
        for cost in UInt(5)...9 {
            let hasher = PasswordHasher(cost: cost)
            var samples: [Double] = []
            for _ in 0..<max(3, rounds / 4) {
                let start = now()
                _ = hasher.hash("correct horse battery staple")
                samples.append(Double(now() - start))
            }
            let chosen = cost == PasswordHasher.standard.cost ? "  <- the cost Auth uses" : ""
            report.add("auth: yescrypt hash, cost \(cost)", format(milliseconds: median(samples)) + chosen)
        }
    }

    private func operations(into report: BenchReport) {
        let folder = NSTemporaryDirectory() + "modhost-bench-auth-" + UUID().uuidString
        let storage = ModuleStorage(dataFolder: folder, module: "Auth")
        do {
            let strings = ModuleStrings.none(locale: LocaleSetting(environment: [:]))
            let service = AuthService(
                store: try AuthStore(storage: storage), hasher: PasswordHasher(cost: 1), outbox: try ResetOutbox(storage: storage),
                resetMessage: ResetMessage.wording(strings))
            _ = try service.register(email: "bench@example.com", name: "Bench", password: "secret12!", confirmation: "secret12!")
            let operations: [(String, () throws -> Void)] = [
                ("current user", { _ = service.currentUser() }),
                ("rename", { try service.updateDisplayName("Bench") }),
                ("request reset (token + outbox)", { try service.requestReset(email: "bench@example.com") }),
                ("log out", { try service.logOut() }),
            ]
            for (name, operation) in operations {
                var samples: [Double] = []
                for _ in 0..<(rounds * 10) {
                    let start = now()
                    try operation()
                    samples.append(Double(now() - start))
                }
                report.add("auth: \(name)", format(milliseconds: median(samples)))
            }
        } catch {
            report.add("auth operations", "FAILED: \(error)")
        }
    }

    private func startup(into report: BenchReport) {
        let modhost = buildFolder + "/modhost"
        let config = writeConfig(["Auth"], name: "auth")
        let data = NSTemporaryDirectory() + "modhost-bench-auth-data-" + UUID().uuidString
        setenv("MODHOST_DATA_DIR", data, 1)
        var modules: [Double] = []
        var welcome: [Double] = []
        for _ in 0..<rounds {
            modules.append(timeProcess(modhost, ["--config", config, "modules"]))
            // No input: the app shows Welcome, reads end of input, and quits.
            welcome.append(timeProcess(modhost, ["--config", config]))
        }
        let base = median(modules)
        let app = median(welcome)
        report.add("start-up: modhost modules (Auth)", format(milliseconds: base))
        report.add("start-up: app to Welcome and out (Auth)", format(milliseconds: app) + String(format: "  (x%.2f)", app / base))
    }
}
