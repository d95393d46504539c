import FoundationEssentials
import Glibc
import HostModel
import ModuleKit
import Synchronization

/// Where the command line writes: standard output for results, standard error for
/// `modhost: error: …` lines. Tests pass their own sinks.
public struct Console: Sendable {
    let out: @Sendable (String) -> Void
    let err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// Standard output and standard error of the process.
    public static let standard = Console(
        out: StandardOutput.write,
        err: StandardError.write
    )

    func print(_ line: String = "") { out(line + "\n") }
    /// One `modhost: error:` line; control characters in it are escaped, so no value it quotes
    /// can forge a second line or send terminal escapes.
    /// Secrets in it are redacted (the kit's one redaction path).
    func error(_ message: String) {
        err("modhost: \(Self.label(\.error)): \(Escaped.escapingControlCharacters(Redaction.redact(message)))\n")
    }

    func warning(_ message: String) {
        err("modhost: \(Self.label(\.warning)): \(Escaped.escapingControlCharacters(Redaction.redact(message)))\n")
    }

    /// A host message in the person's language (English before the host's strings are read,
    /// and with `LC_ALL=C`).
    func print(_ text: HostText) { print(text.render(Self.strings())) }
    func error(_ text: HostText) { error(text.render(Self.strings())) }
    func warning(_ text: HostText) { warning(text.render(Self.strings())) }

    private static let current = Mutex<ModuleStrings?>(nil)

    /// Takes the labels and messages from `strings` (which follow the current language).
    static func localize(with strings: ModuleStrings) {
        current.withLock { $0 = strings }
    }

    private static func strings() -> ModuleStrings? { current.withLock { $0 } }

    /// How ``error(_:)`` begins a line ("modhost: error: "), in the person's language.
    static var errorLead: String { "modhost: \(label(\.error)): " }

    /// The words "error" and "warning" in the person's language.
    private static func label(_ word: KeyPath<Labels, String>) -> String {
        let labels = strings().map { Labels(error: $0[.labelError], warning: $0[.labelWarning]) } ?? Labels()
        return labels[keyPath: word]
    }

    struct Labels: Sendable {
        var error = "error"
        var warning = "warning"
    }
}
