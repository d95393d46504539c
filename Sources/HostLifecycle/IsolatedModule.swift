import Dispatch
import FoundationEssentials
import Glibc
import HostIsolation
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit
import Synchronization

/// A module running in a process of its own, from the host's side: its process and the route
/// link to it, and the endpoint its proxies call through, which starts the process again on the
/// next call after it failed — at most ``restartsAMinute`` times a minute for its own faults.
package final class IsolatedModule: @unchecked Sendable {
    // `incarnation`, `faults`, `endCounted` and `off` are touched only with `lock` held.
    package let name: String
    /// Its routes as keys the host's locator knows (from the generated bridges).
    let manifest: ModuleManifest
    private let lock = RecursiveLock()
    private var incarnation: (process: OwnedProcess, link: RouteLink)
    /// The checked file its process runs: passed to each process started, replaced by a live
    /// restart with new code (``replace(library:process:link:)``), with what it declares.
    private var library: InspectedLibrary
    /// When its own faults ended its process, the latest last.
    private var faults: [ContinuousClock.Instant] = []
    /// Whether the current process's end was counted (each call after it asks again).
    private var endCounted = false
    /// Why it stays off for the rest of the run, once its faults used up its restarts.
    private var off: RouteCallError?
    /// Told once, with the count of its faults, when it goes off: the host records it so.
    private let stayingOff: @Sendable (Int) -> Void
    /// The person's language, as the host has it, and the link and language its process was
    /// last told: a process starts in its environment's language and does not see a switch
    /// made in the host (``tellLanguage(on:)``).
    private let language: LocaleSetting?
    /// Held while the process is told, so that two threads' tells cannot cross on the way
    /// (recursive: the host serves the process's calls while it waits for an answer).
    private let tellingLock = RecursiveLock()
    // Touched only with `tellingLock` held; the link weakly (a new link never passes for an old one).
    private weak var toldLink: RouteLink?
    private var toldCode = ""
    /// Whether the process may choose the person's language (it provides Settings), which the
    /// host then takes from it; another's is never taken.
    private let choosesLanguage: Bool
    /// What its proxies call through.
    package let endpoint: RouteEndpoint

    /// The route the module's process serves besides its own: start and stop.
    package static let control = "__module"
    /// The route both sides serve to show a screen the other presented (``ScreenRelaying``).
    package static let screens = "__screens"
    /// The route the host serves a module's process for the person's language chosen there
    /// (``PersonsLanguage``).
    package static let language = "__language"
    /// How many times a minute a module's own faults may end its process and it be started again.
    static let restartsAMinute = 3

    /// A process started for it: its link, and the language its hello told it (`nil`: none).
    typealias Launched = (process: OwnedProcess, link: RouteLink, language: String?)

    /// - Parameter relaunch: starts the process again on the library given and starts the
    ///   module in it, or says why not.
    init(
        name: String, manifest: ModuleManifest, library: InspectedLibrary, first: Launched, language: LocaleSetting? = nil,
        relaunch: @escaping @Sendable (InspectedLibrary) -> Result<Launched, RouteCallError>,
        stayingOff: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.stayingOff = stayingOff
        self.language = language
        choosesLanguage = Self.choosesLanguage(manifest)
        self.name = name
        self.manifest = manifest
        self.library = library
        incarnation = (first.process, first.link)
        if let told = first.language { (toldLink, toldCode) = (first.link, told) }
        let link = first.link
        let restarter = Restarter()
        endpoint = RouteEndpoint(
            link,
            restart: { failure in
                guard let module = restarter.module else { return .failure(failure) }
                return module.restart(after: failure) { relaunch(module.lock.withLock { module.library }) }
            },
            beforeCall: { link in restarter.module?.tellLanguage(on: link) })
        restarter.module = self
    }

    /// Tells the process behind `link` the person's language when it was not told it yet: each
    /// call finds its texts (a title, a screen, a route's answer) in the language the host's
    /// own are in, after a switch in Settings too. A process that cannot be told keeps its own
    /// (its call, which follows, says what is wrong with it).
    func tellLanguage(on link: RouteLink) {
        guard let language else { return }
        tellingLock.withLock {
            let code = language.current
            guard toldLink !== link || toldCode != code, Self.tell(language: code, on: link) else { return }
            (toldLink, toldCode) = (link, code)
        }
    }

    /// Records that `launched`'s hello told its process `launched.language`, then tells it the
    /// person's language if that has changed since.
    func tellLanguage(after launched: Launched) {
        if let told = launched.language { tellingLock.withLock { (toldLink, toldCode) = (launched.link, told) } }
        tellLanguage(on: launched.link)
    }

    /// Takes the person's language from its process after its start, a screen or a command of
    /// its own ran there (Settings in a process of its own applies the stored choice as it
    /// starts, and the person may choose another there): the host's texts, and every other
    /// module's, then follow it, as they do when Settings runs in the host's process.
    func takeLanguage() {
        // Asked over the link there is: a failed one is started again by the next call, not this.
        let link = self.link
        guard let language, choosesLanguage, link.failed == nil else { return }
        tellingLock.withLock {
            let control = RemoteObject.route(Self.control, on: link)
            guard let code = try? control.call("currentLanguage", RouteArguments(), returning: String.self),
                code != language.current, language.set(code)
            else { return }
            (toldLink, toldCode) = (link, code)
        }
    }

    /// Whether a module of `manifest` chooses the person's language: it provides Settings.
    static func choosesLanguage(_ manifest: ModuleManifest) -> Bool {
        manifest.provides.contains { $0.name == HostRuntime.settingsRouteName }
    }

    /// Tells the process behind `link` that the person's language is `code`; whether it took it.
    static func tell(language code: String, on link: RouteLink) -> Bool {
        var arguments = RouteArguments()
        arguments.value(code)
        return (try? RemoteObject.route(control, on: link).call("language", arguments)) != nil
    }

    /// The module the endpoint restarts, held weakly: the module holds the endpoint.
    private final class Restarter: @unchecked Sendable {
        // Set once, in the module's initializer, before any call.
        weak var module: IsolatedModule?
    }

    package var link: RouteLink { lock.withLock { incarnation.link } }
    package var pid: Int32 { lock.withLock { incarnation.process.pid } }
    /// The checked file its current process runs.
    var currentLibrary: InspectedLibrary { lock.withLock { library } }

    /// Puts a process running new code in place of the current one (a live restart): calls
    /// from now on go to it, and its faults start a fresh count. The old process is returned,
    /// still running, for the caller to stop once its calls under way are done.
    func replace(library: InspectedLibrary, process: OwnedProcess, link: RouteLink) -> (process: OwnedProcess, link: RouteLink) {
        var old = lock.withLock { incarnation }
        // The endpoint's lock first, then this one, as a failed call's restart takes them: the
        // restart then sees either the old incarnation whole or the new one whole.
        _ = endpoint.replace(with: link) {
            lock.withLock {
                old = incarnation
                incarnation = (process, link)
                self.library = library
                faults = []
                endCounted = false
                off = nil
            }
        }
        return old
    }

    /// How the current process ended, once it has: it is ended (its link closed, then killed
    /// after `grace`) when it has not.
    func ended(grace: Duration = .seconds(2)) -> ChildEnd? {
        lock.withLock { incarnation.process }.end(grace: grace)
    }

    /// Starts the process again after `failure`, unless its own faults ended it
    /// ``restartsAMinute`` times in the last minute (an end from outside does not count).
    private func restart(
        after failure: RouteCallError, relaunch: () -> Result<Launched, RouteCallError>
    ) -> Result<RouteLink, RouteCallError> {
        let ending = ended(grace: .seconds(1))
        let (refusal, wentOff): (RouteCallError?, Int?) = lock.withLock {
            if let off { return (off, nil) }
            let now = ContinuousClock.now
            faults.removeAll { now - $0 > .seconds(60) }
            let ownFault = ending.map { $0.countsAgainstTheModule || $0 == .endedByHost(signal: SIGKILL) } ?? true
            if ownFault && !endCounted { faults.append(now) }
            endCounted = true
            guard faults.count <= Self.restartsAMinute else {
                let refused = RouteCallError.unavailable(
                    peer: "module '\(name)'",
                    reason: "its process failed \(faults.count) times within a minute; it stays off for the rest of this run")
                off = refused
                return (refused, faults.count)
            }
            return (nil, nil)
        }
        if let wentOff { stayingOff(wentOff) }
        if let refusal { return .failure(refusal) }
        switch relaunch() {
        case .success(let launched):
            lock.withLock {
                incarnation = (launched.process, launched.link)
                endCounted = false
            }
            // Told the language by its hello, before its start (the relaunch).
            tellLanguage(after: launched)
            takeLanguage()
            return .success(launched.link)
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Runs the module's command `words` in its process, on this process's standard input,
    /// output and error (passed to it for the command), and waits as long as the command runs.
    ///
    /// - Returns: The command's exit status.
    package func runCommand(_ words: [String]) throws(RouteCallError) -> Int32 {
        var arguments = RouteArguments()
        arguments.value(words)
        arguments.pass([0, 1, 2])
        let status = try RemoteObject.route(Self.control, at: endpoint).call(
            "command", arguments, returning: Int32.self, waiting: .forTheAnswer)
        takeLanguage()
        return status
    }

    /// Its title, in its process's language.
    package func title() throws(RouteCallError) -> String {
        try RemoteObject.route(Self.control, at: endpoint).call("title", RouteArguments(), returning: String.self)
    }

    /// The titles of its Home entries, in its process's language.
    @MainActor package func homeTitles() throws(RouteCallError) -> [String] {
        try RemoteObject.route(Self.control, at: endpoint).call("homeEntries", RouteArguments(), returning: [String].self)
    }

    /// Runs its Home entry `index` in its process, on this process's terminal, until the
    /// person leaves its screens; full screen when `fullScreen`.
    /// - Returns: Whether the person quit the app there.
    @MainActor package func showScreen(_ index: Int, on lent: LentTerminal) throws(RouteCallError) -> LentTerminalEnd {
        var arguments = RouteArguments()
        arguments.value(index)
        arguments.value(lent)
        arguments.pass([0, 1, 2])
        let end = try RemoteObject.route(Self.control, at: endpoint).call(
            "screen", arguments, returning: LentTerminalEnd.self, waiting: .forTheAnswer)
        takeLanguage()
        return end
    }

    /// The route calls sent to its current process so far (its start and stop not counted).
    var routeCalls: [RouteCalls] {
        link.stats.summaries.filter { !$0.member.hasPrefix(Self.control + ".") }.map {
            RouteCalls(member: $0.member, count: $0.count, p50: $0.p50, p99: $0.p99)
        }
    }

    /// The manifest of module `descriptor` with route keys of the generated bridges; or the
    /// route that cannot cross, when one it provides or requires has no bridge.
    static func manifest(of descriptor: ModuleDescriptor) -> Result<ModuleManifest, IsolationProblem> {
        func keys(_ names: [String], needed: Bool) -> Result<[RouteKey], IsolationProblem> {
            var keys: [RouteKey] = []
            for name in names {
                if let bridge = RouteBridge.all[name] {
                    keys.append(bridge.key)
                } else if needed {
                    return .failure(IsolationProblem(route: name))
                }
            }
            return .success(keys)
        }
        do {
            return .success(
                ModuleManifest(
                    name: descriptor.name, version: descriptor.version, provides: try keys(descriptor.provides, needed: true).get(),
                    requires: try keys(descriptor.requires, needed: true).get(), uses: try keys(descriptor.uses, needed: false).get()))
        } catch {
            return .failure(error)
        }
    }
}

/// A route that cannot cross to a module's own process: no bridge was generated for it.
struct IsolationProblem: Error {
    let route: String

    var text: HostText {
        HostText(
            "reason.isolation.route",
            "cannot run in a process of its own: route '%@' cannot cross (the host carries the routes of the contracts it is built with)",
            [.plain(route)])
    }
}

/// Makes the screen of an isolated module's Home entry (``HostRuntime/isolatedScreens``), and
/// relays the screens that the routes of one process present for the other.
package struct IsolatedScreenMaker: Sendable {
    package let make: @MainActor @Sendable (IsolatedModule, Int) -> any Screen
    /// Served to every module's process as the route ``IsolatedModule/screens``.
    package let relay: (any ScreenRelaying)?

    package init(relay: (any ScreenRelaying)? = nil, _ make: @escaping @MainActor @Sendable (IsolatedModule, Int) -> any Screen) {
        self.relay = relay
        self.make = make
    }
}

/// The app's relay of screens presented across the boundary: a route of its own, and a wrapper
/// of each route served across, which sends the caller what the call presented.
package protocol ScreenRelaying: RouteDispatching {
    func relaying(_ dispatcher: any RouteDispatching) -> any RouteDispatching
}

/// One process of a module, owned by the host: started, and ended once (its link closed, then
/// killed after a grace), however many ask how it ended.
package final class OwnedProcess: @unchecked Sendable {
    // `process` and `end` are touched only with `lock` held.
    private let lock = RecursiveLock()
    private let process: ModuleProcess
    private var end: ChildEnd??
    package let pid: Int32

    init(_ process: ModuleProcess) {
        self.process = process
        pid = process.pid
    }

    /// How it ended; it is ended first when it has not.
    func end(grace: Duration = .seconds(2)) -> ChildEnd? {
        lock.withLock {
            if let end { return end }
            let ending = process.end(grace: grace)
            end = .some(ending)
            return ending
        }
    }
}

/// A terminal lent to another process for screens (its descriptors pass beside): whether the
/// app was full screen, the keys typed ahead that the borrower reads first, and the breadcrumb
/// its screens show under.
package struct LentTerminal: Codable, Sendable, Equatable {
    package var fullScreen: Bool
    package var typedAhead: [UInt8]
    /// The breadcrumb's steps as the lender read them.
    package var trail: [String]
    /// For each step of `trail`, the key of the host's string it reads, when it is one (Home):
    /// the borrower says it again in the language chosen there (Settings in its own process).
    package var trailKeys: [String?]

    package init(fullScreen: Bool, typedAhead: [UInt8], trail: [String], trailKeys: [String?] = []) {
        self.fullScreen = fullScreen
        self.typedAhead = typedAhead
        self.trail = trail
        self.trailKeys = trailKeys
    }

    /// The breadcrumb's steps in the language of `strings` (the host's strings of the
    /// borrowing process): a step lent with one of `keys` reads as that string now, any other
    /// as lent. At most the 16 steps a screen shows (the lender may be a module's process).
    package func trail(in strings: ModuleStrings, honouring keys: [StringKey]) -> [String] {
        trail.prefix(16).enumerated().map { (index: Int, text: String) -> String in
            guard trailKeys.indices.contains(index), let key = trailKeys[index].map({ StringKey($0) }), keys.contains(key) else {
                return text
            }
            let said = strings[key]
            // A key the strings lack reads as itself (in the pseudo-locale, accented).
            return said == key.rawValue || said == ModuleStrings.pseudo(key.rawValue) ? text : said
        }
    }
}

/// How a terminal lent to another process for screens came back: whether the person quit the
/// app there, and the keys they typed ahead that the lender's next screen reads first.
package struct LentTerminalEnd: Codable, Sendable, Equatable {
    package var quit: Bool
    package var typedAhead: [UInt8]

    package init(quit: Bool, typedAhead: [UInt8]) {
        self.quit = quit
        self.typedAhead = typedAhead
    }
}
