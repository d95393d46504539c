import Foundation
import ModuleHostTesting

/// This repository's suites describe a world's modules as `(name, fields)`, the fields being
/// JSON members as `modules.json` would hold them (`#""enabled": false, "config": {…}"#`); this
/// makes ModuleHostTesting's worlds from that, on this build's `modhost`.
extension TestHost {
    public convenience init(entries: [(String, String)], language: String = "en", environment: [String: String] = [:]) throws {
        try self.init(
            modules: try entries.map(TestHost.Module.init(entry:)), executable: TestEnvironment.modhost, language: language,
            environment: environment)
    }

    /// The world's `modules.json`, as the suites name it.
    public var config: String { modulesFile }

    /// The world's data folder, as the suites name it.
    public var data: String { dataFolder }
}

extension TestHost.Module {
    /// A module from a suite's `(name, fields)` entry.
    public init(entry: (String, String)) throws {
        let object = try JSONSerialization.jsonObject(with: Data("{\(entry.1)}".utf8)) as? [String: Any] ?? [:]
        let config = try object["config"].map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
        self.init(
            name: entry.0, library: object["library"] as? String, enabled: object["enabled"] as? Bool ?? true, config: config,
            startTimeout: object["startTimeout"] as? Double)
    }
}

extension CommandResult {
    /// Whether a signal ended the program (the suites' older spelling).
    public var signaled: Bool { signal != nil }
}
