import HostModel
@_spi(Host) import ModuleKit

/// Contracts libraries outside the kit — route protocols in a package of their own, shared by
/// modules as one dynamic library — checked version against version before any module is
/// loaded.
///
/// The dynamic loader binds every module to the first `lib<Name>.so` of a name that it loads.
/// Contracts libraries are built with library evolution and versioned like the SDK: a module
/// runs with the library of the major it was built against, at a minor up to the held one. So
/// each module records the version of each contracts library it was built against
/// (descriptor format 4), and a module whose record does not fit the library the process will
/// hold is refused, not loaded.
package enum ContractsCheck {
    /// A module about to be loaded, with the contracts versions it records.
    package struct Module {
        let name: String
        let library: String
        let contracts: [ContractsVersion]

        package init(name: String, library: String, contracts: [ContractsVersion]) {
            self.name = name
            self.library = library
            self.contracts = contracts
        }
    }

    /// What is beside a module's library under a contracts library's file name.
    package enum Beside: Equatable {
        /// Nothing: the loader finds the library elsewhere, so only the records can be compared.
        case nothing
        /// A library that records no version (its target does not apply ContractsVersionPlugin).
        case unrecorded(path: String)
        /// A library and the version it records.
        case version(ContractsVersion, path: String)
        /// A file the host will not let the loader open, and why.
        case refused(HostText)
    }

    /// Per contracts library: the version the process will hold, and where that comes from.
    private typealias Held = (version: SDKVersion, origin: HostText)

    /// For each module that must not be loaded, the reason. `modules` are in load order: the
    /// first to need a contracts library decides which file the process holds.
    package static func conflicts(in modules: [Module], beside: (_ library: String, _ contracts: String) -> Beside) -> [String: HostText] {
        var held: [String: Held] = [:]
        var reasons: [String: HostText] = [:]
        for module in modules {
            var loads: [String: Held] = [:]
            for recorded in module.contracts {
                // The descriptor reader checked the record's form.
                guard let built = SDKVersion(recorded.version) else { continue }
                if let current = held[recorded.name] {
                    if let problem = misfit(module, recorded.name, built: built, held: current) {
                        reasons[module.name] = problem
                        break
                    }
                    continue
                }
                switch beside(module.library, recorded.name) {
                case .refused(let why):
                    reasons[module.name] = HostText(
                        "contracts.refused", "needs %@ beside it, which the host will not load: %@",
                        [.plain("lib\(recorded.name).so"), .text(why)])
                case .version(let found, let path):
                    let version = SDKVersion(found.version) ?? built
                    let besideIt: Held = (version, HostText("contracts.origin.beside", "'%@', beside it", [.plain(path)]))
                    if let problem = misfit(module, recorded.name, built: built, held: besideIt) {
                        reasons[module.name] = problem
                    } else {
                        loads[recorded.name] = (
                            version, HostText("contracts.origin.loaded", "'%@', loaded with %@", [.plain(path), .plain(module.name)])
                        )
                    }
                case .unrecorded(let path):
                    let origin = HostText("contracts.origin.loaded", "'%@', loaded with %@", [.plain(path), .plain(module.name)])
                    loads[recorded.name] = (built, origin)
                case .nothing:
                    let origin = HostText("contracts.origin.record", "the version %@ was built against", [.plain(module.name)])
                    loads[recorded.name] = (built, origin)
                }
                if reasons[module.name] != nil { break }
            }
            if reasons[module.name] == nil { held.merge(loads) { first, _ in first } }
        }
        return reasons
    }

    /// Why `module`, built against `built` of contracts library `name`, cannot run with the
    /// `held` one, or `nil` when it can.
    private static func misfit(_ module: Module, _ name: String, built: SDKVersion, held: Held) -> HostText? {
        switch SDKVersion.fit(built: built, held: held.version) {
        case .fits:
            return nil
        case .newerMinor:
            return HostText(
                "contracts.newer",
                "was built against %@ %@, but this run holds %@ %@ (%@), which lacks what %@ added: ship %@ %@ or later in its place",
                [
                    .plain(name), .plain(built.description), .plain(name), .plain(held.version.description), .text(held.origin),
                    .plain(built.minorRelease), .plain(name), .plain(built.minorRelease),
                ])
        case .otherMajor:
            return HostText(
                "contracts.major",
                "was built against %@ %@, but this run holds %@ %@ (%@); a module runs only with the major of a contracts library it was built against: rebuild %@ against %@ %@ ('%@' in its package) and ship them together",
                [
                    .plain(name), .plain(built.description), .plain(name), .plain(held.version.description), .text(held.origin),
                    .plain(module.name), .plain(name), .plain("\(held.version.major).x"), .plain("swift build --product \(module.name)"),
                ])
        }
    }

    /// The contracts library `lib<name>.so` beside a module's library, where the loader looks
    /// first (SwiftPM links modules with the run path `$ORIGIN`), checked like a module library.
    package static func library(beside library: String, named name: String) -> Beside {
        let path = FilePaths.folder(of: library) + "/lib\(name).so"
        let file: TrustedFile
        do {
            file = try TrustedFile(path: path, maximumSize: LibraryFile.maximumSize)
        } catch {
            return error == .missing
                ? .nothing
                : .refused(HostText("", "'%@' %@", [.plain(EscapedPath(path).description), .text(HostText.refusal(error, of: path))]))
        }
        do {
            guard let found = try DescriptorReader.readContractsVersion(fileDescriptor: file.descriptor, size: file.identity.size) else {
                return .unrecorded(path: path)
            }
            guard found.name == name else {
                return .refused(
                    HostText(
                        "contracts.other.name", "'%@' records the version of contracts '%@', not '%@'",
                        [.plain(EscapedPath(path).description), .plain(found.name), .plain(name)]))
            }
            // Library evolution holds between binaries of one compiler: the kit's.
            if let compiler = found.compiler, compiler != ModuleKitABI.compiler {
                return .refused(
                    HostText(
                        "contracts.compiler", "'%@' was built by '%@', this host's kit by '%@'; rebuild it with '%@'",
                        [
                            .plain(EscapedPath(path).description), .plain(compiler), .plain(ModuleKitABI.compiler),
                            .plain(ModuleKitABI.compiler),
                        ])
                )
            }
            return .version(found, path: path)
        } catch {
            switch error {
            case .notELF(let what): return .refused(HostText("", "'%@' %@", [.plain(EscapedPath(path).description), .plain(what)]))
            case .missing: return .unrecorded(path: path)
            case .malformed(let what):
                return .refused(
                    HostText(
                        "contracts.malformed", "'%@' has a malformed contracts section: it %@",
                        [.plain(EscapedPath(path).description), .plain(what)]))
            }
        }
    }
}
