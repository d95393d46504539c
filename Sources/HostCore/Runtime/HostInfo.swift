import Contracts
import Synchronization

/// The host's answer to `HostInfoRoute`, kept current as start-up settles module states.
final class HostInfo: HostInfoRoute {
    let hostVersion: String
    let environment: String
    let dataFolder: String
    private let reports = Mutex<[ModuleReport]>([])
    private let commandLines = Mutex<[String]>([])

    init(hostVersion: String, environment: String, dataFolder: String) {
        self.hostVersion = hostVersion
        self.environment = environment
        self.dataFolder = dataFolder
    }

    var commands: [String] { commandLines.withLock { $0 } }

    func update(commands: [String]) {
        commandLines.withLock { $0 = commands }
    }

    func update(_ reports: [ModuleReport]) {
        self.reports.withLock { $0 = reports }
    }

    var modules: [ModuleStatus] {
        reports.withLock { reports in
            reports.map { ModuleStatus(name: $0.name, state: $0.state.rawValue, reason: $0.reason, version: $0.version) }
        }
    }
}
