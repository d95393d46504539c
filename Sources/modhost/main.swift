import HostCommandLine

// Thin by design: everything modhost does lives in the host targets, where tests reach it.
let arguments = Array(CommandLine.arguments.dropFirst())
// A module's own process installs the guard once it is in its sandbox: the guard's threads
// must start confined (a sandbox covers the threads started after it, not those before).
if !ModhostCommandLine.isModuleHost(arguments) { ModhostCommandLine.installGuard() }
ModhostCommandLine.exit(ModhostCommandLine.main(arguments: arguments))
