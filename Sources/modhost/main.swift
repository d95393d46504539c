import HostCommandLine

// Thin by design: everything modhost does lives in the host targets, where tests reach it.
ModhostCommandLine.installGuard()
ModhostCommandLine.exit(ModhostCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
