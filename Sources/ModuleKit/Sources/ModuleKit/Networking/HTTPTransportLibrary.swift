import Foundation
import Glibc

/// Opens `libModuleKitNetworking.so` — the URLSession transport, and through it
/// FoundationNetworking, libcurl and the TLS libraries — on the first request of the process,
/// from the folder of the `libModuleKit.so` this process runs (the host's build), after
/// checking it as the host checks a module library: a regular file that only its owner (this
/// user or root) can write, in folders that only their owners can write.
enum HTTPTransportLibrary {
    static let fileName = "libModuleKitNetworking.so"
    /// `@_cdecl` in ModuleKitNetworking: `(timeout seconds, response cap) -> +1 transport object`.
    static let entrySymbol = "modulekit_networking_make_transport"

    private typealias Entry = @convention(c) (Double, Int) -> UnsafeMutableRawPointer?

    /// The library's entry point, looked up once per process.
    private static let entry: Result<Entry, NetworkingLibraryError> = open()

    static func makeTransport(timeout: TimeInterval, maximumResponseBytes: Int) -> Result<any HTTPTransport, NetworkingLibraryError> {
        entry.flatMap { make in
            guard let raw = make(timeout, maximumResponseBytes),
                let transport = Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue() as? any HTTPTransport
            else { return .failure(NetworkingLibraryError(message: "'\(fileName)' did not make a transport")) }
            return .success(transport)
        }
    }

    /// Whether the networking library is mapped in this process (for tests and the README's
    /// claim that a run without requests never maps it).
    static var isLoaded: Bool {
        dlopen(path, RTLD_NOW | RTLD_NOLOAD).map { dlclose($0) } != nil
    }

    /// Beside the `libModuleKit.so` this code runs from: the mapping that holds this image's
    /// header (`#dsohandle`) in `/proc/self/maps` (read line by line: procfs files report no size).
    static let path: String = {
        let image = UInt(bitPattern: #dsohandle)
        guard let maps = fopen("/proc/self/maps", "re") else { return fileName }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line)
            let fields = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            guard fields.count == 6, range.count == 2, (range[0]..<range[1]).contains(image) else { continue }
            let file = fields[5].trimmingCharacters(in: .whitespacesAndNewlines)
            return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(fileName).path
        }
        return fileName
    }()

    private static func open() -> Result<Entry, NetworkingLibraryError> {
        let path = self.path
        if let problem = trustProblem(path) { return .failure(NetworkingLibraryError(message: "'\(path)' \(problem)")) }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            return .failure(NetworkingLibraryError(message: "cannot load '\(path)': \(reason)"))
        }
        guard let symbol = dlsym(handle, entrySymbol) else {
            return .failure(NetworkingLibraryError(message: "'\(path)' has no \(entrySymbol)"))
        }
        return .success(unsafeBitCast(symbol, to: Entry.self))
    }

    /// Why the file at `path` must not be loaded, or nil.
    static func trustProblem(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return errno == ENOENT
                ? "does not exist; build it with the kit ('swift build' builds the ModuleKitNetworking product)"
                : "cannot be read: \(String(cString: strerror(errno)))"
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard status.st_uid == geteuid() || status.st_uid == 0 else { return "belongs to another user (uid \(status.st_uid))" }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return "can be written by others than its owner" }
        // Every folder above it too: one that others can write lets them swap the file.
        guard let resolved = realpath(path, nil) else { return "cannot be resolved: \(String(cString: strerror(errno)))" }
        var folder = String(cString: resolved)
        free(resolved)
        while let slash = folder.lastIndex(of: "/"), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0 else { return "is in '\(folder)', which cannot be read" }
            guard folderStatus.st_uid == geteuid() || folderStatus.st_uid == 0 else {
                return "is in '\(folder)', which belongs to another user (uid \(folderStatus.st_uid))"
            }
            // A sticky folder (/tmp) may be writable by all: no one can replace another's file in it.
            let sticky = folderStatus.st_mode & S_ISVTX != 0
            guard sticky || folderStatus.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
                return "is in '\(folder)', which others than its owner can write"
            }
        }
        return nil
    }
}

struct NetworkingLibraryError: Error {
    let message: String
}
