import Dispatch
import FoundationEssentials
import Glibc

/// Opens `libModuleKitNetworking.so` — the URLSession transport, and through it
/// FoundationNetworking, libcurl and the TLS libraries — on the first request of the process,
/// from the folder of the `libModuleKit.so` this process runs (the host's build), checked and
/// loaded as the host loads a module library (``TrustedFile``, ``TrustedLibrary``).
enum HTTPTransportLibrary {
    static let fileName = "libModuleKitNetworking.so"
    /// `@_cdecl` in ModuleKitNetworking: `(timeout seconds, response cap) -> +1 transport object`.
    static let entrySymbol = "modulekit_networking_make_transport"

    private typealias Entry = @convention(c) (Double, Int) -> UnsafeMutableRawPointer?

    /// The library's entry point, looked up once per process.
    private static let entry: Result<Entry, NetworkingLibraryError> = open()

    static func makeTransport(timeout: Double, maximumResponseBytes: Int) -> Result<any HTTPTransport, NetworkingLibraryError> {
        entry.flatMap { make in
            guard let raw = make(timeout, maximumResponseBytes),
                let transport = Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue() as? any HTTPTransport
            else { return .failure(NetworkingLibraryError(message: "'\(fileName)' did not make a transport")) }
            return .success(transport)
        }
    }

    /// Whether the networking library is mapped in this process (for tests and docs/PERFORMANCE.md's
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
            let file = fields[5].trimmedOfWhitespace()
            return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(fileName).path
        }
        return fileName
    }()

    /// Opens the library as the host opens a module library: checked, and loaded from the file
    /// that was checked (``TrustedLibrary``).
    private static func open() -> Result<Entry, NetworkingLibraryError> {
        let path = self.path
        let handle: UnsafeMutableRawPointer
        do {
            let file = try TrustedFile(path: path, maximumSize: 64 << 20)
            handle = try TrustedLibrary.open(file, maximumSize: 64 << 20)
        } catch let error as TrustError {
            guard error != .missing else {
                return .failure(
                    NetworkingLibraryError(
                        message: "'\(path)' does not exist; build it with the kit ('swift build' builds the ModuleKitNetworking product)"))
            }
            return .failure(NetworkingLibraryError(message: "'\(path)' cannot be trusted: \(error)"))
        } catch {
            return .failure(NetworkingLibraryError(message: "cannot load '\(path)': \(error)"))
        }
        guard let symbol = dlsym(handle, entrySymbol) else {
            return .failure(NetworkingLibraryError(message: "'\(path)' has no \(entrySymbol)"))
        }
        return .success(unsafeBitCast(symbol, to: Entry.self))
    }
}

struct NetworkingLibraryError: Error {
    let message: String
}
