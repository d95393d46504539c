import Contracts
import Synchronization

/// The host's answer to `HostInfoRoute`, kept current as start-up settles module states.
final class HostInfo: HostInfoRoute {
    let hostVersion: String
    let environment: String
    private let reports = Mutex<[ModuleReport]>([])

    init(hostVersion: String, environment: String) {
        self.hostVersion = hostVersion
        self.environment = environment
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
