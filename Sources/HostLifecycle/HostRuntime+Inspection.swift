import FoundationEssentials
import Glibc
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit
import Synchronization

// Inspection: a module's library found (modules.json's 'library', else the search paths) and
// checked without opening it (LibraryInspection).
extension HostRuntime {
    /// Finds an enabled module's library and checks and describes it without running any of it
    /// (see ``LibraryInspection``).
    ///
    /// Typed throws rather than a `Result`: a `Result<_, LoadError>` made at start costs a
    /// scan of every loaded conformance, to learn that `LoadError` is an `Error`.
    func inspect(_ entry: ModuleEntry, hashing: Bool) throws(LoadError) -> InspectedLibrary {
        try LibraryInspection.inspect(name: entry.name, path: try locate(entry), pinned: entry.sha256, hashing: hashing)
    }

    /// What checking one enabled module's library found, and how long it took.
    struct Inspection: Sendable {
        let outcome: Outcome
        let took: Duration

        enum Outcome: Sendable {
            case inspected(InspectedLibrary)
            case refused(LoadError)
        }

        /// The checked library, or why it cannot be loaded. (Not a `Result`: see `inspect`.)
        func library() throws(LoadError) -> InspectedLibrary {
            switch outcome {
            case .inspected(let library): return library
            case .refused(let error): throw error
            }
        }
    }

    /// Inspects every enabled module's library (see ``inspect(_:hashing:)``), shared between
    /// this thread and a helper on a machine with a second processor: each is files read and
    /// parsed, independent of the others. Keyed by module name.
    func inspectEnabled(hashing: Bool) -> [String: Inspection] {
        let entries = configuration.modules.filter(\.enabled)
        let found = Mutex<[Inspection?]>(Array(repeating: nil, count: entries.count))
        SharedWork.forEach(entries.count) { index in
            let inspection = timedInspection(of: entries[index], hashing: hashing)
            found.withLock { $0[index] = inspection }
        }
        var inspections: [String: Inspection] = [:]
        inspections.reserveCapacity(entries.count)
        found.withLock { found in
            for (entry, inspection) in zip(entries, found) { inspections[entry.name] = inspection }
        }
        return inspections
    }

    /// Inspects one module's library and says how long that took.
    func timedInspection(of entry: ModuleEntry, hashing: Bool) -> Inspection {
        let began = ContinuousClock.now
        let outcome: Inspection.Outcome
        do throws(LoadError) {
            outcome = .inspected(try inspect(entry, hashing: hashing))
        } catch {
            outcome = .refused(error)
        }
        return Inspection(outcome: outcome, took: ContinuousClock.now - began)
    }

    /// The library's path: `library` from modules.json, else `lib<Name>.so` in the search paths.
    private func locate(_ entry: ModuleEntry) throws(LoadError) -> String {
        if let library = entry.library {
            // The file's folder however `--config` was written: a relative path is taken from
            // the current folder first ("modules.json" → "/srv/app").
            return FilePaths.absolute(library, relativeTo: configuration.folder)
        }
        let file = "lib\(entry.name).so"
        let candidates = configuration.searchPaths.map { FilePaths.absolute(file, relativeTo: $0) }
        var status = stat()
        if let found = candidates.first(where: { lstat($0, &status) == 0 }) {
            return found
        }
        let searched = configuration.searchPaths.map { "'\(EscapedPath($0))'" }.joined(separator: ", ")
        throw
            LoadError(
                kind: .missingFile, module: entry.name, path: file,
                text: HostText(
                    "load.not.found", "was not found in the search paths (%@)%@",
                    [.plain(searched), .text(Self.notFoundAdvice(entry.name, in: configuration.searchPaths))]))
    }

    /// What to do about a module library no search path holds, and only what is true: the
    /// module of that name in a search path when the name looks mistyped; how to build it when
    /// this checkout has such a module; else to give its path.
    static func notFoundAdvice(_ name: String, in searchPaths: [String]) -> HostText {
        let present = searchPaths.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { file -> String? in
                file.hasPrefix("lib") && file.hasSuffix(".so") && file.count > 6 ? String(file.dropFirst(3).dropLast(3)) : nil
            }
        }
        if let near = nearest(to: name, among: present.filter { $0 != name }) {
            return HostText(
                "load.near", "; did you mean '%@' (lib%@.so is there)? Fix 'name' in modules.json", [.plain(near), .plain(near)])
        }
        let checkout = URL(fileURLWithPath: KitLocation.builtKitFolder).deletingLastPathComponent().deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Plugins/\(name)/Package.swift").path) {
            return HostText(
                "load.build.checkout", "; build it (in this checkout: 'swift build --product %@') or set 'library' in modules.json",
                [.plain(name)])
        }
        return HostText("load.set.library", "; set 'library' in modules.json to the path of its lib%@.so", [.plain(name)])
    }

    /// `library 'PATH' CAUSE`, how a problem with a module's library is said.
    static func libraryProblem(_ path: String, _ cause: HostText) -> HostText {
        HostText("reason.library", "library '%@' %@", [.plain(EscapedPath(path).description), .text(cause)])
    }
}
