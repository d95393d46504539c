/// The environment the host runs in, from `modules.json`.
public enum HostEnvironment: String, CaseIterable, Sendable {
    case development, test, stage, production
}
