import Foundation
import ModuleKit

/// `modhost new NAME`: checks the name and the kit, writes the package, and says what to do
/// next, down to the `modules.json` entry that loads it.
struct NewModuleCommand {
    let console: Console

    func run(name: String, output: String?, kit: String?, route: Bool) -> Int32 {
        if let problem = ModuleScaffold.problem(withName: name) {
            console.error("new: \(problem)")
            return ModhostCommandLine.exitUsage
        }
        let kitFolder = absolute(kit ?? ModuleScaffold.builtKitFolder)
        if let problem = ModuleScaffold.problem(withKit: kitFolder) {
            console.error("new: \(problem)")
            return ModhostCommandLine.exitFailure
        }
        let given = output ?? name
        let folder = absolute(given)
        do {
            try ModuleScaffold(name: name, output: folder, kitFolder: kitFolder, withRoute: route).write()
        } catch {
            console.error("new: \(error.message)")
            return ModhostCommandLine.exitFailure
        }
        let entry = #"{ "name": "\#(name)", "enabled": true, "library": \#(JSONOutput.string(folder + "/.build/debug/lib\(name).so")) }"#
        console.print(
            """
            Wrote module '\(name)' in '\(Escaped(folder))' (ModuleKit SDK \(ModuleKitABI.sdkVersion), kit '\(Escaped(kitFolder))').
            Test and build it:
              swift test --package-path \(Self.shellQuoted(given))
              swift build --package-path \(Self.shellQuoted(given))
            Then add to the "modules" of modules.json:
              \(entry)
            and run 'modhost \(name.lowercased()) hello'.
            """)
        if route {
            console.print(
                "Its route \(name)Route is in '\(Escaped(folder))/\(name)Contracts': another module depends on that package and declares 'requires \(name)Route'."
            )
        }
        return ModhostCommandLine.exitSuccess
    }

    private func absolute(_ path: String) -> String {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    /// `text` quoted for a POSIX shell when it needs it.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+".unicodeScalars.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
