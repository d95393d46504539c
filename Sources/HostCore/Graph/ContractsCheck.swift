/// Contracts libraries outside the kit — route protocols in a package of their own, shared by
/// modules as one dynamic library — checked build against build before any module is loaded.
///
/// There is no stable ABI between two builds of a Swift library, and the dynamic loader binds
/// every module to the first `lib<Name>.so` of a name that it loads. So each module records the
/// fingerprint of each contracts library it was built against (descriptor format 3), and a
/// module whose record differs from the build the process will hold is refused, not loaded.
enum ContractsCheck {
    /// A module about to be loaded, with the contracts builds it records.
    struct Module {
        let name: String
        let library: String
        let contracts: [ContractsBuild]
    }

    /// What is beside a module's library under a contracts library's file name.
    enum Beside: Equatable {
        /// Nothing: the loader finds the library elsewhere, so only the records can be compared.
        case nothing
        /// A library that records no build (its target does not apply ContractsFingerprintPlugin).
        case unrecorded(path: String)
        /// A library and the build it records.
        case build(ContractsBuild, path: String)
        /// A file the host will not let the loader open, and why.
        case refused(HostText)
    }

    /// For each module that must not be loaded, the reason. `modules` are in load order: the
    /// first to need a contracts library decides which file the process holds.
    static func conflicts(in modules: [Module], beside: (_ library: String, _ contracts: String) -> Beside) -> [String: HostText] {
        /// Per contracts library: the build the process will hold, and where that comes from.
        var held: [String: (fingerprint: String, origin: HostText)] = [:]
        var reasons: [String: HostText] = [:]
        for module in modules {
            var loads: [String: (fingerprint: String, origin: HostText)] = [:]
            for recorded in module.contracts {
                if let current = held[recorded.name] {
                    guard current.fingerprint != recorded.fingerprint else { continue }
                    reasons[module.name] = mismatch(module, recorded, found: current.fingerprint, in: current.origin)
                    break
                }
                switch beside(module.library, recorded.name) {
                case .refused(let why):
                    reasons[module.name] = HostText(
                        "contracts.refused", "needs %@ beside it, which the host will not load: %@",
                        [.plain("lib\(recorded.name).so"), .text(why)])
                case .build(let build, let path) where build.fingerprint != recorded.fingerprint:
                    let origin = HostText("contracts.origin.beside", "'%@', beside it", [.plain(path)])
                    reasons[module.name] = mismatch(module, recorded, found: build.fingerprint, in: origin)
                case .build(_, let path), .unrecorded(let path):
                    let origin = HostText("contracts.origin.loaded", "'%@', loaded with %@", [.plain(path), .plain(module.name)])
                    loads[recorded.name] = (recorded.fingerprint, origin)
                case .nothing:
                    let origin = HostText("contracts.origin.record", "the build %@ was built against", [.plain(module.name)])
                    loads[recorded.name] = (recorded.fingerprint, origin)
                }
                if reasons[module.name] != nil { break }
            }
            if reasons[module.name] == nil { held.merge(loads) { first, _ in first } }
        }
        return reasons
    }

    private static func mismatch(_ module: Module, _ recorded: ContractsBuild, found: String, in origin: HostText) -> HostText {
        HostText(
            "contracts.mismatch",
            "was built against %@ %@, but this run holds %@ %@ (%@); two builds of a contracts library do not share an ABI: "
                + "rebuild %@ against the %@ it is loaded with ('%@' in its package) and ship both together",
            [
                .plain(recorded.name), .plain(recorded.fingerprint), .plain(recorded.name), .plain(found), .text(origin),
                .plain(module.name), .plain(recorded.name), .plain("swift build --product \(module.name)"),
            ])
    }
}
