import HostCore

// Thin by design: everything modhost does lives in HostCore, where tests reach it.
ModhostCommandLine.installGuard()
ModhostCommandLine.exit(ModhostCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
