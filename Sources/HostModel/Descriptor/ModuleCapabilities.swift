@_spi(Host) import ModuleKit

/// What a module declares it needs beyond its own data folder when it runs in a sandbox of its
/// own: its manifest's `capability` lines, recorded in the section `.modhost_capabilities`
/// (magic `MHCP`). A library without the section declares nothing.
public struct ModuleCapabilities: Sendable, Equatable {
    /// Sockets other than UNIX ones, TCP connect and bind.
    public var network = false
    /// Starting programs.
    public var exec = false
    /// Paths it reads beneath (absolute, or `~/…` for the home folder of the user running it).
    public var reads: [String] = []
    /// Paths it reads and writes beneath.
    public var writes: [String] = []
    /// Environment variables it reads (its process gets no others but the host's own).
    public var environment: [String] = []

    public init(network: Bool = false, exec: Bool = false, reads: [String] = [], writes: [String] = [], environment: [String] = []) {
        self.network = network
        self.exec = exec
        self.reads = reads
        self.writes = writes
        self.environment = environment
    }

    /// The words an operator may deny in modules.json (`"deny": ["network"]`): a capability's
    /// word, or a `read`/`write` line as declared.
    public var words: [String] {
        (network ? ["network"] : []) + (exec ? ["exec"] : []) + reads.map { "read " + $0 } + writes.map { "write " + $0 }
            + environment.map { "env " + $0 }
    }

    public var isEmpty: Bool { words.isEmpty }

    /// These capabilities without those `denied` names: `network`, `exec`, `read`, `write`,
    /// `env` (all of that kind) or one declared line (`read /usr/share/dict`). Never wider.
    public func narrowed(denying denied: [String]) -> ModuleCapabilities {
        let denied = Set(denied)
        return ModuleCapabilities(
            network: network && !denied.contains("network"), exec: exec && !denied.contains("exec"),
            reads: denied.contains("read") ? [] : reads.filter { !denied.contains("read " + $0) },
            writes: denied.contains("write") ? [] : writes.filter { !denied.contains("write " + $0) },
            environment: denied.contains("env") ? [] : environment.filter { !denied.contains("env " + $0) })
    }

    /// The declared lines among `denied` (`read /opt/maps`, `env KEY`) that name nothing
    /// declared here: a slip in modules.json that takes nothing away.
    public func unmatched(_ denied: [String]) -> [String] {
        denied.filter { $0.contains(" ") && !words.contains($0) }
    }

    /// Whether `word` names something these capabilities could deny.
    public static func isDeniable(_ word: String) -> Bool {
        ["network", "exec", "read", "write", "env"].contains(word) || word.hasPrefix("read /") || word.hasPrefix("read ~/")
            || word.hasPrefix("write /") || word.hasPrefix("write ~/")
            || (word.hasPrefix("env ") && isEnvironmentName(String(word.dropFirst(4))))
    }

    /// Parses the section: one capability a line, each checked as the kit's build tool does.
    init(section bytes: [UInt8]) throws(DescriptorError) {
        let (_, lines) = try SectionFrame.parse(bytes, magic: "MHCP", formats: 1...1)
        self.init()
        for line in lines where !line.isEmpty {
            let text = String(line)
            switch text {
            case "network": network = true
            case "exec": exec = true
            default:
                let (word, path) = (text.prefix { $0 != " " }, String(text.drop { $0 != " " }.dropFirst()))
                if word == "env", Self.isEnvironmentName(path) {
                    environment.append(path)
                    continue
                }
                guard word == "read" || word == "write", Self.isPlainPath(path) else {
                    throw .malformed(
                        "declares capability '\(Escaped(String(text.prefix(80))))', not network, exec, read PATH or write PATH")
                }
                if word == "read" { reads.append(path) } else { writes.append(path) }
            }
        }
    }

    /// `PIXABAY_API_KEY`, `https_proxy`: letters, digits and `_`, not a digit first.
    static func isEnvironmentName(_ value: String) -> Bool {
        guard value.utf8.count <= 128, let first = value.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return value.utf8.allSatisfy {
            (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_")
        }
    }

    /// Absolute or `~/…`, with no `.` or `..` part and no control character.
    static func isPlainPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return (path.hasPrefix("/") || path.hasPrefix("~/")) && path.utf8.count <= 1024 && !parts.contains("..")
            && !parts.contains(".")
            && path.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }
}
