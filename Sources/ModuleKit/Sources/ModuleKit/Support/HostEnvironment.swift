/// The environment the host runs in, from `modules.json` (seed 000's `Environment`).
public enum HostEnvironment: String, CaseIterable, Sendable {
    case development, test, stage, production
}
