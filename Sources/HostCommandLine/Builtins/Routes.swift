import HostLifecycle

extension Builtins {
    /// `modhost routes`: each route, its provider and its consumers, after a start.
    struct Routes: CommandInSession, Equatable {
        static let declaration = Builtin(
            id: "routes", word: "routes", usage: "routes", summary: ["List each route, its provider and consumers"],
            access: .writesData, startsModules: true,
            make: { rest, _ throws(UsageError) in
                try Builtin.noArgument("routes", rest)
                return Routes()
            }, example: "modhost routes")

        func run(in session: HostSession) -> Int32 {
            let runtime = session.runtime
            runtime.start()
            runtime.stop()
            session.console.out(RoutesReportFormat.table(runtime.routes, strings: runtime.strings))
            return ModhostCommandLine.exitSuccess
        }
    }
}
