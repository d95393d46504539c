/// Where the running program is on disk.
public enum ProcessLocation {
    /// The folder of the running executable (through `/proc/self/exe`, so symlinks resolve):
    /// where `modhost` looks for `lib<Name>.so` by default, and where SwiftPM puts resources
    /// next to a test executable.
    /// Found once: the executable cannot move under a running process.
    public static let executableFolder: String = {
        let executable =
            FilePaths.resolved("/proc/self/exe")
            ?? FilePaths.absolute(CommandLine.arguments.first ?? ".", relativeTo: FilePaths.currentFolder)
        return FilePaths.folder(of: executable)
    }()
}
