/// Where a module ended up after start-up.
public enum ModuleState: String, Sendable, Codable {
    /// Registered and started.
    case active
    /// Turned off in `modules.json`, by `--disable`, or not selected by `--only`.
    case disabled
    /// Its own problem: it did not load, its config is wrong, it is in a cycle, it provides a
    /// route another module provides, or it threw in register or start.
    case failed
    /// Not started because a route it requires is unavailable.
    case skipped
}
