import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit

/// `modhost new NAME`: checks the name and the kit, writes the package, and says what to do
/// next, down to the `modules.json` entry that loads it.
struct NewModuleCommand {
    let console: Console

    func run(name: String, output: String?, kit: String?, route: Bool) -> Int32 {
        if let problem = ModuleScaffold.problem(withName: name) {
            console.error(Self.prefixed(problem))
            return ModhostCommandLine.exitUsage
        }
        let kitFolder = absolute(kit ?? ModuleScaffold.builtKitFolder)
        if let problem = ModuleScaffold.problem(withKit: kitFolder) {
            console.error(Self.prefixed(problem))
            return ModhostCommandLine.exitFailure
        }
        let given = output ?? name
        let folder = absolute(given)
        do {
            try ModuleScaffold(name: name, output: folder, kitFolder: kitFolder, withRoute: route).write()
        } catch {
            console.error(Self.prefixed(error.text))
            return ModhostCommandLine.exitFailure
        }
        let entry = #"{ "name": "\#(name)", "enabled": true, "library": \#(JSONOutput.string(folder + "/.build/debug/lib\(name).so")) }"#
        console.print(
            HostText(
                "new.wrote", "Wrote module '%@' in '%@' (ModuleKit SDK %@, kit '%@').",
                [
                    .plain(name), .plain(EscapedPath(folder).description), .plain(ModuleKitABI.sdkVersion),
                    .plain(EscapedPath(kitFolder).description),
                ]))
        console.print(HostText("new.next.build", "Test and build it:"))
        console.print("  swift test --package-path \(Self.shellQuoted(given))")
        console.print("  swift build --package-path \(Self.shellQuoted(given))")
        console.print(HostText("new.next.entry", "Then add to the \"modules\" of modules.json:"))
        console.print("  " + entry)
        console.print(HostText("new.next.run", "and run '%@'.", [.plain("modhost \(ModuleName(name).commandWord) hello")]))
        if route {
            console.print(
                HostText(
                    "new.route",
                    "Its route %@ is in '%@': another module depends on that package and declares '%@'.",
                    [.plain(name + "Route"), .plain("\(EscapedPath(folder))/\(name)Contracts"), .plain("requires \(name)Route")]))
        }
        return ModhostCommandLine.exitSuccess
    }

    /// `new: …`, the command the message is about first (its name is not translated).
    private static func prefixed(_ problem: HostText) -> HostText { HostText("", "new: %@", [.text(problem)]) }

    private func absolute(_ path: String) -> String {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    /// `text` quoted for a POSIX shell when it needs it.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+".unicodeScalars.contains($0))
        }
        guard !plain else { return text }
        // Scalar by scalar: a quote with a combining mark after it is one Character, which a
        // replacement of the Character "'" would leave in place, ending the quoting early.
        var quoted = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted.append(contentsOf: "'\\''".unicodeScalars) } else { quoted.append(scalar) }
        }
        return "'" + String(quoted) + "'"
    }
}
