import FoundationEssentials
import Glibc
import HostModel
import HostProcesses
import HostSandbox
import ModuleKit

/// The sandbox of module `name`'s own process, made from what it may reach: the libraries
/// this process maps and the module's library folder (read and mapped), the module's data
/// folder (read and written), the few system files every process reads, and what its
/// manifest declares, less what modules.json denies.
///
/// No folder granted whole holds the data folder, modules.json or the home folder (a
/// library kept beside modules.json, a binary in `/`): such a folder is granted file by file,
/// its libraries and resource bundles only.
package enum ModuleSandbox {
    /// The policy, and the module's own data folder, opened now (before the sandbox: the
    /// module uses the open folder; made if it was not there); `nil` when it could not be
    /// opened.
    ///
    /// - Parameters:
    ///   - capabilities: What the module's library declares, less what modules.json denies.
    ///   - library: The path its library was checked at.
    ///   - mapped: The files a module's process maps before its module's library is opened
    ///     (``mappedFiles()``, in that process or in the host before it opened any); `nil` for a
    ///     policy without its paths, for a process that restricts itself with the ruleset the
    ///     host made of them.
    package static func policy(
        for name: String, runtime: HostRuntime, capabilities: ModuleCapabilities, library: String?, mapped: [String]?
    ) -> (SandboxPolicy, folder: String?) {
        var policy = SandboxPolicy()
        let folder = (try? runtime.storage(of: name).files())?.path
        policy.network = capabilities.network
        policy.exec = capabilities.exec
        policy.environment = capabilities.environment
        if let limits = runtime.configuration.entry(named: name)?.limits { policy.limits = ResourceLimit.defaults(overriddenBy: limits) }
        guard let mapped else { return (policy, folder) }
        let kept = [runtime.options.dataFolder, runtime.configuration.path, ProcessEnvironment.value("HOME") ?? ""]
            .filter { $0.hasPrefix("/") }.map { FilePaths.resolved($0) ?? $0 }
        var files = mapped
        if let library { files.append(FilePaths.resolved(library) ?? library) }
        var runs = SandboxPolicy.systemLibraries
        for folder in unique(files.map(FilePaths.folder(of:))) {
            if kept.contains(where: { isWithin($0, folder) }) {
                runs += libraries(in: folder)
            } else {
                runs.append(folder)
            }
        }
        if capabilities.exec { runs += SandboxPolicy.programs }
        policy.runs = unique(runs)
        policy.reads = SandboxPolicy.systemReads + (capabilities.network ? SandboxPolicy.networkReads : [])
        policy.writes = (folder.map { [$0] } ?? []) + SandboxPolicy.systemWrites
        // What it declared: taken as written, never through a symlink (one it could plant
        // in a folder it writes would lead anywhere).
        let declaredReads = capabilities.reads.compactMap(expandingHome)
        let declaredWrites = capabilities.writes.compactMap(expandingHome)
        policy.reads += declaredReads
        policy.writes += declaredWrites
        policy.withoutSymlinks = Set(declaredReads + declaredWrites)
        return (policy, folder)
    }

    /// Whether `path` is `folder` or lies beneath it.
    package static func isWithin(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// The libraries and resource bundles in `folder`, each a path of its own.
    package static func libraries(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".resources") || $0.hasSuffix(".so") || $0.contains(".so.") }.sorted()
            .map { (folder == "/" ? "" : folder) + "/" + $0 }
    }

    /// `path` with a leading `~/` as the home folder of the user running the host (`HOME`);
    /// `nil` for `~/…` without one.
    package static func expandingHome(_ path: String) -> String? {
        guard path.hasPrefix("~/") else { return path }
        guard let home = ProcessEnvironment.value("HOME"), home.hasPrefix("/") else { return nil }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + String(path.dropFirst())
    }

    /// A temporary folder of this process's own in the module's data folder, made the
    /// process's `TMPDIR`: the loader makes its folder of links there, the module its
    /// temporary files. Named for this process (one a process of the same id left, when its
    /// host could not remove it, is removed first); the host removes it once this process has
    /// ended. Its path, or `nil` when it could not be made.
    package static func useOwnTemporaryFolder(in folder: String) -> String? {
        let name = ModuleProcess.temporaryFolderName(of: getpid())
        let parent = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard parent >= 0 else { return nil }
        defer { close(parent) }
        FolderTree.remove(name, in: parent)
        guard mkdirat(parent, name, 0o700) == 0 else { return nil }
        let path = folder + "/" + name
        setenv("TMPDIR", path, 1)
        return path
    }

    /// Every library this process has loaded and its binary, resolved: the kit, the Swift
    /// runtime, the toolchain's and the system's libraries. Before the module's library is
    /// opened, these are every file the process maps (it maps no locale archive or other
    /// data file then; `/proc/self/maps`, which would name one, costs a tenth of a millisecond
    /// to read).
    package static func mappedFiles() -> [String] {
        var files = FilePaths.resolved("/proc/self/exe").map { [$0] } ?? []
        // Resolved by folder (a handful), not file by file (a few dozen); a file that is itself
        // a link is resolved whole, as the kernel names what it maps.
        var folders: [String: String] = [:]
        let here = FilePaths.currentFolder
        for given in LoadedImages.paths {
            let path = FilePaths.absolute(given, relativeTo: here)
            let folder = FilePaths.folder(of: path)
            let resolved = folders[folder] ?? FilePaths.resolved(folder) ?? folder
            folders[folder] = resolved
            // On the bytes: a path's characters are not needed to take its folder off.
            let name = String(Substring(path.utf8.dropFirst(folder == "/" ? 1 : folder.utf8.count + 1)))
            var file = resolved == "/" ? "" : resolved
            file.append("/")
            file.append(name)
            var status = stat()
            let isLink = lstat(file, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
            files.append(isLink ? FilePaths.resolved(file) ?? file : file)
        }
        return unique(files)
    }

    private static func unique(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}

extension ResourceLimit {
    /// The defaults, with what modules.json sets in their place.
    static func defaults(overriddenBy set: ModuleLimits) -> [ResourceLimit] {
        defaults.map { limit in
            switch limit.kind {
            case .memory: set.memoryMiB.map { ResourceLimit(.memory, UInt64($0) << 20, asked: true) } ?? limit
            case .openFiles: set.openFiles.map { ResourceLimit(.openFiles, UInt64($0), asked: true) } ?? limit
            case .fileSize: set.fileSizeMiB.map { ResourceLimit(.fileSize, UInt64($0) << 20, asked: true) } ?? limit
            case .processes: set.processes.map { ResourceLimit(.processes, UInt64($0), asked: true) } ?? limit
            case .coreSize: limit
            }
        }
    }
}
