import FoundationEssentials
import Glibc
import HostApp
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit

extension Builtins {
    /// `modhost` with no command: starts the modules and runs the app (Welcome or Home) until
    /// the person quits, input ends, or SIGINT/SIGTERM; then stops the modules.
    struct App: CommandInSession, Equatable {
        static let declaration = Builtin(
            id: "run", usage: "(none)", summary: ["Start the modules and run the interactive app"], access: .writesData,
            startsModules: true,
            make: { _, _ in App() }, example: "modhost")

        func run(in session: HostSession) -> Int32 {
            let (runtime, console) = (session.runtime, session.console)
            // Check from the app sees the modules as this run does: crash records included
            // or not (a child otherwise decides its records itself).
            let recording = session.arguments.recordsCrashes ? [] : CommandLineTable.noCrashRecords.words()
            let locale = runtime.locale
            let check = CheckFromTheApp(
                options: session.arguments.childOptions() + recording, strings: runtime.strings, language: { locale.current },
                timeouts: runtime.configuration.modules.map(\.timeout))
            let ui = runtime.navigator.ui
            runtime.provideCheck {
                // From a screen (the main thread): the app says it is checking while it does.
                guard DetachedThread.isMain else { return check.run() }
                let working = HostText("check.app.working", "Checking…").render(runtime.strings)
                return MainActor.assumeIsolated { ui.working(working) { check.run() } }
            }
            runtime.start()
            if session.fullScreen && FullScreenMode.enter(ui, strings: runtime.strings) {
                // Above the first screen, where they are seen.
                for problem in runtime.problems { ui.print(problem) }
            } else {
                for problem in runtime.problems { console.error(problem) }
            }
            AppShell(runtime: runtime).run()
            runtime.stop()
            return ModhostCommandLine.exitSuccess
        }
    }
}
