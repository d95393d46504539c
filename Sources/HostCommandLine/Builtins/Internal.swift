import Contracts
import Glibc
import HostApp
import HostIsolation
import HostLifecycle
import HostModel
import HostProcesses
import HostSandbox
@_spi(Host) import ModuleKit

// The internal commands: not listed by `--help`; what completion and `check` run.
extension Builtins {
    /// `__modules [words]`: the names of modules.json's modules (`words`: as commands), for
    /// completion. From modules.json only: completion never runs module code, nor opens a
    /// library.
    struct ListModules: CommandInSession, Equatable {
        var asWords = false

        static let declaration = Builtin(
            id: "modules.names", word: "__modules", usage: "__modules [words]", summary: [], access: .readsOnly,
            make: { rest, _ in ListModules(asWords: rest.first == "words") }, hidden: true)

        func run(in session: HostSession) -> Int32 {
            for entry in session.runtime.configuration.modules {
                session.console.print(asWords ? ModuleName(entry.name).commandWord : entry.name)
            }
            return ModhostCommandLine.exitSuccess
        }
    }

    /// `__commands WORD [COMMAND]`: the commands module WORD's manifest declares, or that
    /// command's options, for completion (from the descriptors, as help: no library opened).
    struct ListCommands: CommandInSession, Equatable {
        let module: String
        var command: String? = nil

        static let declaration = Builtin(
            id: "modules.commands", word: "__commands", usage: "__commands MODULE [COMMAND]", summary: [], access: .readsOnly,
            make: { rest, _ in ListCommands(module: rest.first ?? "", command: rest.dropFirst().first) }, hidden: true)

        func run(in session: HostSession) -> Int32 {
            let runtime = session.runtime
            runtime.planOnly()
            let found = runtime.modules.first { ModuleName($0.name).commandWord == module && $0.state == .active }
            let declared = found?.commands ?? []
            if let command {
                for option in declared.first(where: { $0.name == command })?.options ?? [] { session.console.print(option) }
            } else {
                for declaration in declared { session.console.print(declaration.name) }
            }
            return ModhostCommandLine.exitSuccess
        }
    }

    /// `__probe NAME…`: loads these modules in this process and reports each: what `check`
    /// runs in a child process, so that a library's code cannot crash, stop or hang `check`.
    struct Probe: CommandInSession, Equatable {
        let names: [String]

        static let declaration = Builtin(
            id: "probe", word: "__probe", usage: "__probe NAME...", summary: [], access: .readsOnly, checksDespiteProblems: true,
            make: { rest, _ in Probe(names: rest) }, hidden: true)

        func run(in session: HostSession) -> Int32 {
            // Before any library: what a constructor starts ends with this probe, and it can
            // signal nothing outside it (the check, the app, the shell).
            ProcessCleanup.endDescendantsOnExit()
            defer { ProcessCleanup.run() }
            ProcessScope.confineSignals()
            HostRuntime.reportEnds()
            session.runtime.planOnly()
            session.runtime.probe(names, write: session.console.out)
            return ModhostCommandLine.exitSuccess
        }
    }

    /// `__module-host NAME [ROUTE...]`: runs module NAME alone in this process for the host,
    /// which talks to it over descriptor 3 (its end of a socketpair, ``ModuleProcess``): the
    /// hellos, then route calls both ways — the host's calls of NAME's routes and of its start
    /// and stop, and NAME's calls of the ROUTEs the host serves it — until the host closes its
    /// end. Serves on the main thread, where the app's screens and main-actor routes run.
    struct ModuleHost: CommandInSession, Equatable {
        let name: String
        let routes: [String]

        static let declaration = Builtin(
            id: "module.host", word: HostRuntime.moduleHostCommand, usage: "__module-host NAME [ROUTE...]", summary: [],
            access: .readsOnly, make: { rest, _ in ModuleHost(name: rest.first ?? "", routes: Array(rest.dropFirst())) }, hidden: true)

        /// The link to the host, made once descriptor 3 is known to be a socket.
        private static let link: RouteLink? = {
            var status = stat()
            guard fstat(ModuleProcess.linkDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
            // Kept from anything the module starts.
            _ = fcntl(ModuleProcess.linkDescriptor, F_SETFD, FD_CLOEXEC)
            return RouteLink(
                channel: FrameChannel(descriptor: ModuleProcess.linkDescriptor), peer: "the host",
                routes: ModuleHostServed.route(named:), answersPings: true,
                onProblem: { line in StandardError.write("modhost: warn: \(line)\n") })
        }()

        /// The host's hello, read once, before the runtime is made: it names the routes the
        /// host serves (the host may start this process before it knows them). `nil` when the
        /// host closed its end first (it started this process early and then did not need it).
        private static let greeting: Result<FrameChannel.Received?, WireError>? = link.map { link in
            Result { () throws(WireError) in try link.channel.receive() }
        }

        /// Why the library this process checked is not the file the host checked (`host`, passed
        /// with its hello), or `nil` when it is. Without a file from the host (a test's own
        /// hello), this process's checks stand alone.
        static func sameFile(_ host: Int32?, _ mine: Int32?) -> String? {
            guard let host else { return nil }
            guard let mine else { return "its library was not found or did not pass the checks in its process" }
            var theirs = stat()
            var ours = stat()
            guard fstat(host, &theirs) == 0, fstat(mine, &ours) == 0 else { return "its library cannot be compared with the host's" }
            let same =
                theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino && theirs.st_size == ours.st_size
                && theirs.st_mtim.tv_sec == ours.st_mtim.tv_sec && theirs.st_mtim.tv_nsec == ours.st_mtim.tv_nsec
            return same ? nil : "its library is not the file the host checked: it was replaced or changed in between; not opened"
        }

        func configure(_ options: inout RuntimeOptions) {
            options.only = [name]
            options.enable.append(name)
            options.parentLink = Self.link
            options.parentRoutes = routes
            switch Self.greeting {
            case .success(let first?):
                if let hello = try? Hello(first.frame) { options.parentRoutes += hello.routes.filter { !routes.contains($0) } }
            case .success(nil):
                // Started early and not needed after all: nothing opened, nothing to say.
                _exit(ModhostCommandLine.exitSuccess)
            case .failure, nil:
                break
            }
            options.readOnly = false
        }

        func run(in session: HostSession) -> Int32 {
            guard let link = Self.link else {
                session.console.error(
                    HostText("", "'__module-host' talks to the host on descriptor 3, which is not a socket here", []))
                return ModhostCommandLine.exitUsage
            }
            let channel = link.channel
            ProcessCleanup.endDescendantsOnExit()
            defer { ProcessCleanup.run() }
            let runtime = session.runtime
            // Its terminal is the one the host lends it, only while it does.
            OffTheTerminal.move()
            // As modules.json spells it: the command line that started this process may not.
            let name = runtime.configuration.entry(named: name)?.name ?? name
            let mine = Hello(
                hostVersion: HostRuntime.version, sdkVersion: ModuleKitABI.sdkVersion, contracts: [("Contracts", ModuleKitABI.sdkVersion)])
            do throws(WireError) {
                // The host's hello first: it carries the library file the host checked.
                guard let first = try Self.greeting?.get() else { return ModhostCommandLine.exitSuccess }
                var passed = first.descriptors
                defer { for descriptor in passed { close(descriptor) } }
                let theirs = try Hello(first.frame)
                // Named by the hello; a hello that names none (a test's own) passes the library, then the filter.
                func descriptor(_ kind: String, at position: Int) -> Int32? {
                    guard theirs.passes.isEmpty else { return theirs.passed(kind, in: passed) }
                    return position < passed.count ? passed[position] : nil
                }
                let (library, program, ruleset) = (
                    descriptor(Hello.library, at: 0), descriptor(Hello.filter, at: 1), descriptor(Hello.ruleset, at: 2)
                )
                // A host's hello that names what it passes passes the library it checked.
                if !theirs.passes.isEmpty, library == nil {
                    try? channel.send(
                        Frame(kind: ModuleProcess.Kind.failure, payload: Array("the host's hello passes no library to compare with".utf8)))
                    return ModhostCommandLine.exitFailure
                }
                if let why = Hello.mismatch(mine: mine, theirs: theirs) {
                    try? channel.send(
                        Frame(kind: ModuleProcess.Kind.failure, payload: Array("the host's hello does not agree: \(why)".utf8)))
                    return ModhostCommandLine.exitFailure
                }
                // The person's language, before any of the module's code runs.
                if let code = theirs.language { runtime.parentLanguage.heard(code) }
                // Checked here as the host checks, and nothing opened before this file is known to be
                // the one the host checked.
                runtime.planOnly()
                if let problem = Self.sameFile(library, runtime.checkedLibrary(of: name)) {
                    try? channel.send(Frame(kind: ModuleProcess.Kind.failure, payload: Array(problem.utf8)))
                    return ModhostCommandLine.exitFailure
                }
                // Confined before the module's library is opened: its code never runs unconfined.
                do throws(Sandbox.Failure) {
                    // Without its paths when the host made the ruleset of them.
                    let (policy, folder) = ModuleSandbox.policy(
                        for: name, runtime: runtime, capabilities: runtime.capabilities(of: name),
                        library: runtime.checkedLibraryPath(of: name), mapped: ruleset == nil ? ModuleSandbox.mappedFiles() : nil)
                    // What its library needs beside it, asked before the sandbox hands each question to the host.
                    runtime.prepareLibraryLoad(of: name)
                    let missing = Sandbox.notEnforced(policy, abi: Sandbox.landlockABI)
                    let audit = runtime.options.sandboxAudit.containsModule(name)
                    if runtime.configuration.entry(named: name)?.sandbox == .required, !missing.isEmpty, !audit {
                        throw Sandbox.Failure(
                            description:
                                "its sandbox cannot be whole here ('sandbox' is \"required\"): this kernel cannot enforce \(missing.joined(separator: "; "))"
                        )
                    }
                    let temporary = folder.flatMap(ModuleSandbox.useOwnTemporaryFolder(in:))
                    // "sandbox": "off": the operator's word, said by `modules` and `check`.
                    let off = runtime.configuration.entry(named: name)?.sandbox == .off && !audit
                    // The host's hello carries the filter and the ruleset it made for this module;
                    // `confine` closes the ruleset.
                    passed.removeAll { $0 == ruleset }
                    if off, let ruleset { close(ruleset) }
                    let confinement =
                        off ? Sandbox.Confinement.none : try Sandbox.confine(policy, audit: audit, program: program, ruleset: ruleset)
                    // Closed before the module's code runs.
                    if let program {
                        close(program)
                        passed.removeAll { $0 == program }
                    }
                    // Removed here on the way out only where its sandbox does not hand the
                    // removal to the host (a round trip as the process ends): the host removes
                    // it once this process has ended in any case.
                    if confinement.refusals == nil, let temporary { _ = ProcessCleanup.removeOnExit(temporary) }
                    if !off && !audit {
                        runtime.logger.debug(
                            "module '\(name)': its seccomp filter \(confinement.filterFromHost ? "is the host's" : "was built in its process")"
                        )
                        if confinement.landlockABI >= 1 {
                            runtime.logger.debug(
                                "module '\(name)': its Landlock ruleset \(ruleset != nil ? "is the host's" : "was made in its process")")
                        }
                    }
                    for part in confinement.notEnforced { runtime.logger.debug("module '\(name)': not enforced here: \(part)") }
                    for part in confinement.leftOut { runtime.logger.warn("module '\(name)': its sandbox: \(part)") }
                    // The calls its filter refuses go to the host, which names them.
                    if let refusals = confinement.refusals {
                        // What its sandbox grants comes along: the host tells only what lies beyond.
                        try? channel.send(
                            Frame(kind: ModuleProcess.Kind.refusals, payload: confinement.granted), descriptors: [refusals])
                        close(refusals)
                    }
                    // Its threads start in the sandbox (see main.swift).
                    ModhostCommandLine.installGuard()
                } catch {
                    try? channel.send(Frame(kind: ModuleProcess.Kind.failure, payload: Array("\(error)".utf8)))
                    return ModhostCommandLine.exitFailure
                }
                runtime.prepare()
                guard let report = runtime.modules.first(where: { ModuleName($0.name) == ModuleName(name) }), report.state != .failed,
                    report.state != .disabled
                else {
                    let reason = runtime.modules.first { ModuleName($0.name) == ModuleName(name) }?.reason ?? "no module '\(name)'"
                    try? channel.send(Frame(kind: ModuleProcess.Kind.failure, payload: Array(reason.utf8)))
                    return ModhostCommandLine.exitFailure
                }
                try channel.send(mine.frame)
            } catch {
                session.console.error(HostText("", "the link to the host failed: %@", [.plain(error.description)]))
                return ModhostCommandLine.exitFailure
            }
            ModuleHostServed.serve(session, module: name, on: link)
            if let failure = link.serveUntilClosed() {
                session.console.error(HostText("", "the link to the host failed: %@", [.plain(failure.description)]))
                runtime.stop()
                return ModhostCommandLine.exitFailure
            }
            runtime.stop()
            return ModhostCommandLine.exitSuccess
        }
    }
}
