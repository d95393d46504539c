import Glibc
import HostLoading
import HostModel
import HostProcesses
import HostSandbox
@_spi(Host) import ModuleKit
import Synchronization

// The sandbox of a module's own process, made by the host while that process starts: its
// paths, and a Landlock ruleset of them, which the process restricts itself with. What the
// process would otherwise do itself, first thing, the host does while it waits for it.
extension HostRuntime {
    /// Notes the files this process maps before it opens any module's library: those a
    /// module's own process maps before it opens its own (the same binary, the same libraries,
    /// the same environment). Once, at the load phase of a run that has such a process.
    func noteModuleProcessImages() {
        moduleProcessImages.withLock { images in
            if images == nil { images = ModuleSandbox.mappedFiles() }
        }
    }

    /// The ruleset of module `entry`'s sandbox and what it grants, for its process running
    /// `library`, which declares `capabilities` (less what modules.json denies); `nil` where
    /// the process makes its own (no Landlock here, an audit, `"sandbox": "off"`, the images
    /// not noted, or a ruleset Landlock refused: the process then says why).
    func preparedRuleset(
        for entry: ModuleEntry, library: InspectedLibrary, capabilities: ModuleCapabilities, audit: Bool
    ) -> Sandbox.Ruleset? {
        let abi = Sandbox.landlockABI
        guard entry.sandbox != .off, !audit, abi >= 1, let images = moduleProcessImages.withLock({ $0 }) else { return nil }
        let (policy, _) = ModuleSandbox.policy(
            for: entry.name, runtime: self, capabilities: capabilities, library: library.path, mapped: images)
        guard let made = try? Sandbox.ruleset(for: policy, abi: abi) else { return nil }
        for part in made.leftOut { logger.warn("module '\(entry.name)': its sandbox: \(part)") }
        return made
    }
}
