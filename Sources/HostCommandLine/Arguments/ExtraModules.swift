import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit

/// `--module PATH`: a library loaded for one run beside the modules of modules.json (what
/// `modhost dev` and a module author use), without editing the file.
enum ExtraModules {
    /// `configuration` with each library of `paths` as an enabled module named after its file
    /// (`libNotes.so` → `Notes`). A module the file already lists takes the library instead,
    /// keeping its `config`; the descriptor check still holds the file to that name.
    static func add(_ paths: [String], to configuration: HostConfiguration) throws(UsageError) -> HostConfiguration {
        var extended = configuration
        for path in paths {
            let file = URL(fileURLWithPath: path).lastPathComponent
            guard file.hasPrefix("lib"), file.hasSuffix(".so"), file.count > 6 else {
                throw UsageError(
                    HostText(
                        "usage.module.file", "--module '%@': expected a module library named lib<Name>.so",
                        [.plain(EscapedPath(path).description)]))
            }
            let name = String(file.dropFirst(3).dropLast(3))
            guard ModuleDescriptor.isIdentifier(name) else {
                throw UsageError(
                    HostText(
                        "usage.module.name", "--module '%@': '%@' is not a module name",
                        [.plain(EscapedPath(path).description), .plain(Escaped(name).description)]))
            }
            let absolute = absolute(path)
            let existing = extended.modules.firstIndex { ModuleName($0.name) == ModuleName(name) }
            let entry = ModuleEntry(
                name: existing.map { extended.modules[$0].name } ?? name, enabled: true, library: absolute,
                config: existing.flatMap { extended.modules[$0].config }, sha256: nil,
                startTimeout: existing.flatMap { extended.modules[$0].startTimeout },
                index: existing.flatMap { extended.modules[$0].index })
            if let existing { extended.modules[existing] = entry } else { extended.modules.append(entry) }
        }
        return extended
    }

    /// `path`, relative to the working folder unless absolute.
    static func absolute(_ path: String) -> String {
        FilePaths.absolute(path, relativeTo: FilePaths.currentFolder)
    }
}
