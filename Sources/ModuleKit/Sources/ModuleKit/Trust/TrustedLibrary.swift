import Glibc
import Synchronization

/// Loads a checked library from the file that was checked, never from its path again.
///
/// `dlopen` of a path opens it anew: between a check and that open, anyone who can write a
/// folder on the way (the folder of a symlink included) could swap the file. So the library is
/// loaded from its open descriptor (`/proc/self/fd/N`), and kept open for the life of the
/// process: libraries are never unloaded, and a closed descriptor's number, reused, would make
/// the dynamic linker take a later `/proc/self/fd/N` for the library already loaded under it.
///
/// The dynamic linker finds a library's dependencies through its run path, whose `$ORIGIN`
/// is the folder the library was opened from: `/proc/self/fd` for a descriptor. So when a
/// dependency that no loaded library answers to yet lies beside the library (a contracts
/// library), it is checked and opened the same way, and both are loaded through a private
/// folder (mode 0700) of links to their descriptors, made for the load and removed after it.
/// (The linker then knows them by their file names; `--log-level debug` names every file the
/// host loaded, and a crash's backtrace file names the module of each address.)
@_spi(Host) public enum TrustedLibrary {
    /// Files of loaded libraries, kept open for the process's life (see above).
    private static let keptOpen = Mutex<[TrustedFile]>([])

    /// The resolved paths of the files loaded so far, in order (dependencies after the
    /// library that needed them): what `--log-level debug` reports the host loaded.
    public static var loadedPaths: [String] { loadedPaths(after: 0) }

    /// How many files have been loaded so far.
    public static var loadedCount: Int { keptOpen.withLock { $0.count } }

    /// The resolved paths of the files loaded after the first `count`: what one load added,
    /// without copying every earlier one (a run of 200 modules asked 200 times).
    public static func loadedPaths(after count: Int) -> [String] {
        keptOpen.withLock { $0.dropFirst(count).map(\.resolvedPath) }
    }

    /// What loading a checked file needs to know of it, read ahead of the load: the names of
    /// the libraries it needs that lie beside it, or why it cannot be loaded. Made on any
    /// thread (a run reads these for many modules two at a time), and loaded with `open`.
    public struct Preparation: Sendable {
        /// The file it was read from, the one it loads.
        public let file: TrustedFile
        fileprivate let outcome: Outcome

        fileprivate enum Outcome: Sendable {
            case ready(beside: [String])
            case refused(LibraryError)
        }
    }

    /// Reads what loading `file` needs (see ``Preparation``); nothing is opened or run.
    public static func prepare(_ file: TrustedFile) -> Preparation {
        do throws(LibraryError) {
            return Preparation(file: file, outcome: .ready(beside: try namesBeside(file, in: FilePaths.folder(of: file.resolvedPath))))
        } catch {
            return Preparation(file: file, outcome: .refused(error))
        }
    }

    /// Loads `file` (`RTLD_NOW | RTLD_LOCAL`) and returns its handle.
    ///
    /// - Parameter maximumSize: The largest dependency accepted, in bytes.
    /// - Throws: ``LibraryError``: a dependency beside it fails the trust rules, or the dynamic
    ///   linker refuses it (its own message).
    public static func open(_ file: TrustedFile, maximumSize: Int) throws(LibraryError) -> UnsafeMutableRawPointer {
        try open(prepare(file), maximumSize: maximumSize)
    }

    /// Loads the file `prepared` was read from, as `open` of that file does.
    public static func open(_ prepared: Preparation, maximumSize: Int) throws(LibraryError) -> UnsafeMutableRawPointer {
        let file = prepared.file
        let folder = FilePaths.folder(of: file.resolvedPath)
        let name = fileName(of: file.resolvedPath)
        // The library itself counts as beside it: a dependency that needs it back finds it.
        var beside: [(name: String, file: TrustedFile)] = [(name, file)]
        switch prepared.outcome {
        case .ready(let names): try collect(names, in: folder, into: &beside, maximumSize: maximumSize)
        case .refused(let error): throw error
        }
        beside.removeFirst()
        let handle: UnsafeMutableRawPointer?
        _ = dlerror()
        if beside.isEmpty {
            handle = dlopen("/proc/self/fd/\(file.descriptor)", RTLD_NOW | RTLD_LOCAL)
        } else {
            let links = try LinkFolder(naming: [(name, file)] + beside)
            defer { links.remove() }
            handle = dlopen(links.path + "/" + name, RTLD_NOW | RTLD_LOCAL)
        }
        guard let handle else { throw .dynamicLinker(dlerror().map { String(cString: $0) } ?? "unknown dlopen error") }
        keptOpen.withLock { $0 += [file] + beside.map(\.file) }
        return handle
    }

    /// Asks now, for the load of `file` later in this process, whether each library it needs
    /// lies beside it: a module's own process asks before its sandbox is made, which would hand
    /// each question to the host. Only the names the library itself needs are asked, as the
    /// load asks them (a sandbox does not refuse asking for a name, so the answers tell the
    /// module nothing it could not learn); no file is opened. (``prepare(_:)``, whose answers
    /// are kept for the process.)
    public static func prepareLoad(of file: TrustedFile) {
        _ = prepare(file)
    }

    /// The libraries `file` needs that lie in `folder`, in its order.
    ///
    /// - Throws: ``LibraryError`` when its tables cannot be read, or its run path is relative
    ///   to its own folder.
    private static func namesBeside(_ file: TrustedFile, in folder: String) throws(LibraryError) -> [String] {
        let dependencies = try LibraryDependencies(fileDescriptor: file.descriptor, size: file.identity.size)
        // Loaded from its descriptor (or the link folder), the library's $ORIGIN is no longer
        // its folder: a run path relative to it ("$ORIGIN/../lib") would send the linker to a
        // folder nobody checked, perhaps one anyone can write. (Searched in UTF-8: Foundation's
        // `contains` bridges to NSString for each entry of every library.)
        for list in dependencies.runPaths {
            for entry in list.utf8.split(separator: UInt8(ascii: ":")) where mentionsOrigin(entry) {
                let text = String(decoding: entry, as: UTF8.self)
                if text != "$ORIGIN" && text != "${ORIGIN}" { throw .relativeRunPath(text) }
            }
        }
        // Only what lies beside it matters (the rest the linker finds in system folders);
        // looking there first spares a dlopen for each of the toolchain's libraries.
        return dependencies.needed.filter { !$0.utf8.contains(UInt8(ascii: "/")) && isBeside($0, in: folder) }
    }

    /// Adds to `beside` each library `file` needs that no loaded library answers to yet and
    /// that lies in `folder`, checked, with what it needs in turn.
    private static func collectDependencies(
        of file: TrustedFile, in folder: String, into beside: inout [(name: String, file: TrustedFile)], maximumSize: Int
    ) throws(LibraryError) {
        try collect(namesBeside(file, in: folder), in: folder, into: &beside, maximumSize: maximumSize)
    }

    /// Adds to `beside` each of `names` (libraries lying in `folder`) that no loaded library
    /// answers to yet, checked, with what it needs in turn.
    private static func collect(
        _ names: [String], in folder: String, into beside: inout [(name: String, file: TrustedFile)], maximumSize: Int
    ) throws(LibraryError) {
        for name in names {
            guard !beside.contains(where: { $0.name == name }) else { continue }
            let path = folder + "/" + name
            if isLoaded(name) { continue }
            let dependency: TrustedFile
            do {
                dependency = try TrustedFile(path: path, maximumSize: maximumSize)
            } catch {
                throw .dependency(name: name, path: path, error)
            }
            beside.append((name, dependency))
            try collectDependencies(of: dependency, in: folder, into: &beside, maximumSize: maximumSize)
        }
    }

    private static func mentionsOrigin(_ entry: Substring.UTF8View) -> Bool {
        let origin = Array("ORIGIN".utf8)
        guard entry.count >= origin.count else { return false }
        var start = entry.startIndex
        while entry.distance(from: start, to: entry.endIndex) >= origin.count {
            if entry[start...].starts(with: origin) { return true }
            start = entry.index(after: start)
        }
        return false
    }

    /// Whether a file named `name` lies in `folder`, asked by name once per process: each
    /// library needs about twenty libraries that are not beside it, the same few names for
    /// every library of a run (listing the folder instead read every name in it, hundreds
    /// where a run keeps its modules together).
    private static func isBeside(_ name: String, in folder: String) -> Bool {
        let path = (folder == "/" ? "" : folder) + "/" + name
        if let known = besideAnswers.withLock({ $0[path] }) { return known }
        var status = stat()
        let answer = lstat(path, &status) == 0
        besideAnswers.withLock { $0[path] = answer }
        return answer
    }

    private static let besideAnswers = Mutex<[String: Bool]>([:])

    /// Whether a library answers to `name` already (the kit, the contracts), remembered: asking
    /// the dynamic linker compares the name with every loaded library's, and libraries stay.
    private static func isLoaded(_ name: String) -> Bool {
        if loadedNames.withLock({ $0.contains(name) }) { return true }
        guard let handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        loadedNames.withLock { _ = $0.insert(name) }
        return true
    }

    private static let loadedNames = Mutex<Set<String>>([])

    private static func fileName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}

/// A private folder (mode 0700) of symlinks to open descriptors, for one load.
private struct LinkFolder {
    let path: String
    let names: [String]

    init(naming files: [(name: String, file: TrustedFile)]) throws(LibraryError) {
        // Resolved by the trust rules: a TMPDIR through a link someone else could replace
        // would let them swap the folder between its check and the load.
        let given = ProcessEnvironment.value("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let temporary: String
        do {
            temporary = try TrustedPath.resolve(given)
        } catch {
            throw .linkFolder("'\(EscapedPath(given))' is not a folder to load from: \(error)")
        }
        var template = Array((temporary + "/modhost-load-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .linkFolder("cannot make a folder in '\(EscapedPath(temporary))': \(TrustedPath.systemError())")
        }
        path = String(cString: made)
        names = files.map(\.name)
        do {
            // Another user who could rename this folder away could put links of theirs here.
            try TrustedPath.checkFolders(above: path)
        } catch {
            rmdir(path)
            throw .linkFolder("'\(EscapedPath(temporary))' is not a folder to load from: \(error)")
        }
        for (name, file) in files where symlink("/proc/self/fd/\(file.descriptor)", path + "/" + name) != 0 {
            let reason = TrustedPath.systemError()
            remove()
            throw .linkFolder("cannot link '\(Escaped(name))' in '\(EscapedPath(path))': \(reason)")
        }
    }

    func remove() {
        for name in names { unlink(path + "/" + name) }
        rmdir(path)
    }
}

/// A checked library the host could not load, and why (in English, for the caller's message).
@_spi(Host) public enum LibraryError: Error, Equatable, Sendable {
    /// A library it needs, beside it, fails the trust rules.
    case dependency(name: String, path: String, TrustError)
    /// The dynamic linker refused it; its message.
    case dynamicLinker(String)
    /// Its ELF tables cannot be read.
    case malformed(String)
    /// The private folder of links to its dependencies could not be made.
    case linkFolder(String)
    /// Its run path names a folder relative to its own (`$ORIGIN/../lib`), which cannot be
    /// honoured when it is loaded from its checked file.
    case relativeRunPath(String)
}
