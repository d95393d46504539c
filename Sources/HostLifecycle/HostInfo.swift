import Contracts
import HostModel
import Synchronization

/// The host's answer to `HostInfoRoute`, kept current as start-up settles module states.
package final class HostInfo: HostInfoRoute {
    package let hostVersion: String
    package let environment: String
    package let dataFolder: String
    private let reports = Mutex<[ModuleReport]>([])
    /// Asked each time, so the lines follow the current language.
    private let commandLines = Mutex<@Sendable () -> [String]>({ [] })
    /// A module's name as its strings say it ("module.title"), in the current language.
    private let titles = Mutex<@Sendable (String) -> String>({ $0 })
    /// A host message in the current language.
    private let describer = Mutex<@Sendable (HostText) -> String>({ $0.description })
    /// Runs `modhost check` for this run; `nil` until the command line gives one (the app).
    private let checker = Mutex<(@Sendable () -> [String]?)?>(nil)

    init(hostVersion: String, environment: String, dataFolder: String) {
        self.hostVersion = hostVersion
        self.environment = environment
        self.dataFolder = dataFolder
    }

    package var commands: [String] { commandLines.withLock { $0 }() }

    package func check() -> [String]? { checker.withLock { $0 }?() }

    func update(check: @escaping @Sendable () -> [String]?) {
        checker.withLock { $0 = check }
    }

    func update(
        commands: @escaping @Sendable () -> [String], titles: @escaping @Sendable (String) -> String,
        describe: @escaping @Sendable (HostText) -> String
    ) {
        commandLines.withLock { $0 = commands }
        self.titles.withLock { $0 = titles }
        describer.withLock { $0 = describe }
    }

    func update(_ reports: [ModuleReport]) {
        self.reports.withLock { $0 = reports }
    }

    package var modules: [ModuleStatus] {
        let title = titles.withLock { $0 }
        let describe = describer.withLock { $0 }
        return reports.withLock { $0 }.map {
            ModuleStatus(
                name: $0.name, state: $0.state, reason: $0.reasonText.map(describe), version: $0.version, title: title($0.name))
        }
    }
}
