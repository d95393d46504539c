/// Why a host test could not do what it asked; each names the command and says what to do.
public enum HostTestingError: Error, CustomStringConvertible, Sendable {
    /// No `modhost` binary where the test looked.
    case noHost(searched: [String])
    /// A program did not end within its time limit; it was killed.
    case timedOut(command: [String], seconds: Double, output: String)
    /// The screen never showed `text` within the time limit.
    case screenNeverShowed(text: String, seconds: Double, screen: String)
    /// A program could not be started.
    case cannotStart(command: [String], reason: String)
    /// Standard output was not the JSON asked for.
    case notJSON(command: [String], output: String, reason: String)
    /// A library named for the world does not exist.
    case noLibrary(path: String)

    public var description: String {
        switch self {
        case .noHost(let searched):
            let places = searched.isEmpty ? "" : " (looked at \(searched.map { "'\($0)'" }.joined(separator: ", ")))"
            return
                "no modhost executable found\(places); set MODHOST_EXECUTABLE to its path (a build's '.build/debug/modhost'), or pass it as TestHost(executable:)"
        case .timedOut(let command, let seconds, let output):
            return "'\(command.joined(separator: " "))' did not end within \(seconds) s and was killed; it wrote:\n\(output)"
        case .screenNeverShowed(let text, let seconds, let screen):
            return "the screen did not show '\(text)' within \(seconds) s; it shows:\n\(screen)"
        case .cannotStart(let command, let reason):
            return "cannot start '\(command.joined(separator: " "))': \(reason)"
        case .notJSON(let command, let output, let reason):
            return "'\(command.joined(separator: " "))' did not print the JSON asked for (\(reason)); it printed:\n\(output)"
        case .noLibrary(let path):
            return "no module library at '\(path)'; build it first ('swift build'), or give its path"
        }
    }
}
