import Foundation
import HostCore

// Thin by design: everything modhost does lives in HostCore, where tests reach it.
exit(ModhostCommandLine.main(arguments: Array(CommandLine.arguments.dropFirst())))
