import FoundationEssentials
import Glibc
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit
import Synchronization

/// `modhost dev PATH [-- ARGS…]`: watches a module package, rebuilds it on every change, and
/// runs `modhost ARGS…` with the fresh library loaded (`--module`): the app when ARGS is
/// empty, with the module in a process of its own (`--isolate`), which the open app starts
/// again on each new build (live restart); or a command, run again on each change.
///
/// It polls the package's files (not `.build`) every quarter second: no inotify, and
/// nothing missed when an editor replaces a file instead of writing it.
struct DevCommand {
    let console: Console
    /// The module package's folder (absolute).
    let package: String
    /// What chooses the child `modhost`'s modules, as the option table passes it (`childOptions()`).
    let hostOptions: [String]
    /// What the child runs; empty for the app.
    let arguments: [String]

    func run() -> Int32 {
        guard let name = Self.moduleName(in: package) else {
            console.error(
                Self.prefixed(
                    HostText(
                        "dev.no.package",
                        "no module package at '%@': expected Package.swift and Sources/module.manifest or Sources/<Target>/module.manifest with a 'name' line",
                        [.plain(EscapedPath(package).description)])))
            return ModhostCommandLine.exitUsage
        }
        let library = package + "/.build/debug/lib\(name).so"
        let what =
            arguments.isEmpty
            ? HostText("dev.the.app", "the app") : HostText("", "'%@'", [.plain("modhost \(arguments.joined(separator: " "))")])
        console.print(
            Self.prefixed(
                HostText(
                    "dev.watching", "watching '%@' (module '%@'); Ctrl-C ends", [.plain(EscapedPath(package).description), .plain(name)])))
        var snapshot = Self.snapshot(of: package)
        // The app runs the module in a process of its own and stays open across builds: it
        // takes each new library as it is put in place (live restart). A build that leaves the
        // library as it was (a strings file changed) starts the app again, as a command is run
        // again: the module's process reads its resources when it starts.
        var app: pid_t = 0
        while true {
            let started = ContinuousClock.now
            let before = Self.identity(of: library)
            console.print(Self.prefixed(HostText("dev.building", "building %@…", [.plain(name)])))
            guard build() else {
                console.print(Self.prefixed(HostText("dev.build.failed", "the build failed (above); waiting for a change")))
                (snapshot, app) = waitForChange(from: snapshot, child: app, keepsIt: true)
                if app == 0 { SignalTrap.child.withLock { $0 = 0 } }
                continue
            }
            let seconds = FixedDecimals.text(ModuleGuard.seconds(ContinuousClock.now - started), places: 1)
            if app > 0, Self.identity(of: library) == before {
                kill(app, SIGTERM)
                _ = ChildCommand.wait(app)
                app = 0
            }
            // No pid of a child that has ended: Ctrl-C would signal whoever has it now.
            if app == 0 { SignalTrap.child.withLock { $0 = 0 } }
            if app > 0 {
                console.print(Self.prefixed(HostText("dev.built.live", "built in %@ s; the open app runs it now", [.plain(seconds)])))
            } else {
                console.print(Self.prefixed(HostText("dev.built", "built in %@ s; running %@", [.plain(seconds), .text(what)])))
                let child = spawnHost(library: library, isolating: arguments.isEmpty ? name : nil)
                if child == 0 {
                    console.error(
                        Self.prefixed(
                            HostText(
                                "dev.cannot.start", "cannot start '%@'; waiting for a change",
                                [.plain(EscapedPath(RunningExecutable.path).description)])))
                }
                app = arguments.isEmpty ? child : 0
                SignalTrap.child.withLock { $0 = child }
                if !arguments.isEmpty {
                    snapshot = waitForChange(from: snapshot, child: child, keepsIt: false).snapshot
                    SignalTrap.child.withLock { $0 = 0 }
                    continue
                }
            }
            (snapshot, app) = waitForChange(from: snapshot, child: app, keepsIt: true)
            if app == 0 { SignalTrap.child.withLock { $0 = 0 } }
        }
    }

    /// `swift build --package-path PACKAGE`, its output shown only when it fails. The log is
    /// made with `mkstemp`: a predictable name in the shared temporary folder could be a
    /// planted symlink.
    private func build() -> Bool {
        var template = Array((TemporaryFolder.path + "modhost-dev-XXXXXX").utf8CString)
        let log = mkstemp(&template)
        guard log >= 0 else {
            console.error(
                Self.prefixed(
                    HostText(
                        "dev.cannot.log", "cannot create a build log in '%@': %@",
                        [.plain(EscapedPath(TemporaryFolder.path).description), .plain(String(cString: strerror(errno)))])))
            return false
        }
        _ = unlink(template)
        _ = fcntl(log, F_SETFD, FD_CLOEXEC)
        defer { close(log) }
        let status =
            ChildCommand.spawn(["/usr/bin/env", "swift", "build", "--package-path", package], output: .descriptor(log)).map {
                ChildCommand.exitCode(ChildCommand.wait($0))
            } ?? -1
        if status != 0 {
            lseek(log, 0, SEEK_SET)
            let text = String(decoding: ProcFile.bytes(of: log) ?? [], as: UTF8.self)
            let lines = text.split(separator: "\n").filter { $0.contains("error") || $0.contains("warning:") }
            for line in lines.prefix(40) { console.err(line + "\n") }
        }
        return status == 0
    }

    private func spawnHost(library: String, isolating name: String?) -> pid_t {
        let isolation = name.map { CommandLineTable.isolate.words($0) } ?? []
        return ChildCommand.spawnHost(hostOptions + CommandLineTable.module.words(library) + isolation + arguments, output: .inherited) ?? 0
    }

    /// Polls until a file of the package changes; reports the child's exit on the way, and
    /// stops it (SIGTERM) when a change comes first unless it `keepsIt` (the app, which takes
    /// the new library itself).
    /// - Returns: The package's files now, and the child when it still runs (else 0).
    private func waitForChange(from snapshot: [String: String], child: pid_t, keepsIt: Bool) -> (snapshot: [String: String], child: pid_t) {
        var running = child
        while true {
            usleep(250_000)
            if running > 0 {
                if let status = ChildCommand.poll(running) {
                    running = 0
                    console.print(
                        Self.prefixed(
                            HostText("dev.exited", "exited with %@; waiting for a change", [.plain("\(ChildCommand.exitCode(status))")])))
                }
            }
            let now = Self.snapshot(of: package)
            guard now != snapshot else { continue }
            if running > 0 && !keepsIt {
                kill(running, SIGTERM)
                _ = ChildCommand.wait(running)
                running = 0
            }
            console.print(Self.prefixed(Self.changed(snapshot, now)))
            return (now, running)
        }
    }

    // MARK: - Files

    /// The library's inode, size and modification time, or `nil` when there is none.
    static func identity(of path: String) -> [Int]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }

    /// Every file under the package but build products, with its size and modification time.
    static func snapshot(of package: String) -> [String: String] {
        var result: [String: String] = [:]
        var pending = [""]
        while let relativeFolder = pending.popLast() {
            let folder = relativeFolder.isEmpty ? package : package + "/" + relativeFolder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where !name.hasPrefix(".") {
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                var status = stat()
                guard lstat(package + "/" + relative, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: pending.append(relative)
                case S_IFREG: result[relative] = "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
                default: continue
                }
            }
        }
        return result
    }

    private static func changed(_ before: [String: String], _ after: [String: String]) -> HostText {
        let paths = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return paths.count == 1
            ? HostText("dev.changed.file", "'%@' changed", [.plain(EscapedPath(paths[0]).description)])
            : HostText("dev.changed.files", "%@ files changed", [.plain("\(paths.count)")])
    }

    /// `dev: …` (the command's name is not translated).
    private static func prefixed(_ text: HostText) -> HostText { HostText("", "dev: %@", [.text(text)]) }

    /// The `name` in `Sources/module.manifest` (a target whose path is `Sources`, as in this
    /// repository's Plugins/<Name>) or the first `Sources/*/module.manifest`.
    static func moduleName(in package: String) -> String? {
        guard FileManager.default.fileExists(atPath: package + "/Package.swift"),
            let targets = try? FileManager.default.contentsOfDirectory(atPath: package + "/Sources")
        else { return nil }
        for manifest in ["module.manifest"] + targets.sorted().map({ "\($0)/module.manifest" }) {
            guard let text = try? String(contentsOfFile: "\(package)/Sources/\(manifest)", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.count == 2, words[0] == "name", ModuleDescriptor.isIdentifier(String(words[1])) { return String(words[1]) }
            }
        }
        return nil
    }
}
