import Foundation

/// Where the running program is on disk.
public enum ProcessLocation {
    /// The folder of the running executable (through `/proc/self/exe`, so symlinks resolve):
    /// where `modhost` looks for `lib<Name>.so` by default, and where SwiftPM puts resources
    /// next to a test executable.
    public static var executableFolder: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL.path
    }
}
