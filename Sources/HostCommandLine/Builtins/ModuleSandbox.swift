import Foundation
import HostLifecycle
import HostProcesses
import HostSandbox

/// The sandbox of module `name`'s own process, made from what it may reach: the libraries
/// this process maps and the module's library folder (read and mapped), the module's data
/// folder (read and written), the few system files every process reads.
enum ModuleSandbox {
    static func policy(for name: String, runtime: HostRuntime) -> SandboxPolicy {
        var policy = SandboxPolicy()
        // Opened now, before the sandbox: the module uses the open folder.
        let folder = (try? runtime.storage(of: name).files())?.path
        var runs = SandboxPolicy.systemLibraries + mappedFolders()
        if let library = runtime.checkedLibraryPath(of: name) {
            runs.append((URL(fileURLWithPath: library).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent)
        }
        policy.runs = unique(runs)
        let capabilities = runtime.capabilities(of: name)
        policy.network = capabilities.network
        policy.exec = capabilities.exec
        if capabilities.exec { policy.runs += SandboxPolicy.programs }
        policy.reads = SandboxPolicy.systemReads + (capabilities.network ? SandboxPolicy.networkReads : [])
        policy.reads += capabilities.reads.compactMap(expandingHome)
        policy.writes = (folder.map { [$0] } ?? []) + capabilities.writes.compactMap(expandingHome)
        return policy
    }

    /// `path` with a leading `~/` as the home folder of the user running the host (`HOME`);
    /// `nil` for `~/…` without one.
    static func expandingHome(_ path: String) -> String? {
        guard path.hasPrefix("~/") else { return path }
        guard let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + String(path.dropFirst())
    }

    /// A temporary folder of this process's own in the module's data folder, made the
    /// process's `TMPDIR`: the loader makes its folder of links there, the module its
    /// temporary files; emptied on the way out.
    static func useOwnTemporaryFolder(in folder: String) {
        var template = Array((folder + "/.tmp-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return }
        let path = String(cString: made)
        guard ProcessCleanup.removeOnExit(path) else { return }
        setenv("TMPDIR", path, 1)
    }

    /// The folders of every file this process maps now: the kit, the Swift runtime, the
    /// toolchain's and the system's libraries (`/proc/self/maps`).
    static func mappedFolders() -> [String] {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var folders: [String] = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard !path.hasSuffix(" (deleted)"), let end = path.lastIndex(of: "/") else { continue }
            folders.append(end == path.startIndex ? "/" : String(path[..<end]))
        }
        return unique(folders)
    }

    private static func unique(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
