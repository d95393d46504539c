import HostModel
@_spi(Host) import ModuleKit

/// What a library must say about itself, in its file's descriptor (read before it is opened)
/// and again from its entry point (after): one rule for both, so the two can never disagree on
/// what is accepted or on how a refusal is worded.
package enum HandshakeRules {
    /// The module ABI the library speaks must be the host's. `rebuild` is asked only for a
    /// refusal: it resolves paths (two `realpath`s, a `readlink` per folder on the way).
    static func abiProblem(_ found: UInt32, rebuild: () -> HostText) -> HostText? {
        guard found != ModuleKitABI.version else { return nil }
        return HostText(
            "load.abi", "speaks module ABI version %@, the host speaks %@; rebuild it against this host's kit%@",
            [.plain("\(found)"), .plain("\(ModuleKitABI.version)"), .text(rebuild())])
    }

    /// The module the library holds must be the one modules.json names for it.
    static func nameProblem(_ found: String, expected: String) -> HostText? {
        guard found != expected else { return nil }
        return HostText(
            "load.name", "holds module '%@', not '%@'; fix 'name' or 'library' in modules.json", [.plain(found), .plain(expected)])
    }
}
