import CLibraryFile
import Contracts
import Glibc
@_spi(Host) import ModuleKit

/// Where this process's own `libModuleKit.so` and `libContracts.so` were mapped from, checked
/// as a module library is: every module runs on them, so a kit that another user could
/// change is as bad as a module they could change. `LD_LIBRARY_PATH` (read by the dynamic
/// linker before `modhost` runs) is the usual way one arrives from the wrong folder.
package enum KitOrigin {
    /// Why no module may run on the kit this process holds, or `nil` when it is trusted.
    package static let problem: HostText? = {
        for type in [ServiceLocator.self as Any.Type, AuthUser.self as Any.Type] {
            if let problem = problem(ofImageHolding: unsafeBitCast(type, to: UnsafeRawPointer.self)) { return problem }
        }
        return libraryPathProblem()
    }()

    /// The dynamic linker looks in `LD_LIBRARY_PATH` before a module's own run path: a folder
    /// there that others can write would let them give a module its dependencies.
    private static func libraryPathProblem() -> HostText? {
        guard let variable = ProcessEnvironment.value("LD_LIBRARY_PATH") else { return nil }
        // An empty entry is the current folder, to the dynamic linker.
        for entry in variable.split(separator: ":", omittingEmptySubsequences: false).map({ $0.isEmpty ? "." : String($0) }) {
            var exists = stat()
            guard stat(entry, &exists) == 0 else { continue }
            do throws(TrustError) {
                let folder = try TrustedPath.resolve(entry)
                var status = stat()
                guard stat(folder, &status) == 0 else { continue }
                try TrustedPath.checkOwnerAndMode(of: folder, status, isFolder: false)
                try TrustedPath.checkFolders(above: folder)
            } catch {
                return HostText(
                    "kit.library.path.folder", "LD_LIBRARY_PATH names '%@', which %@; no module runs while it does",
                    [.plain("\(Escaped(entry))"), .text(HostText.refusal(error, of: entry))])
            }
        }
        return nil
    }

    /// The trust problem of the library that holds `address`, if any.
    static func problem(ofImageHolding address: UnsafeRawPointer) -> HostText? {
        guard let name = modhost_image_path(address) else { return nil }
        let path = String(cString: name)
        do throws(TrustError) {
            _ = try TrustedFile(path: path, maximumSize: Int.max)
            return nil
        } catch {
            let fromVariable = libraryPathFolder(holding: path)
            return HostText(
                "kit.untrusted", "the host's own library '%@' %@; no module runs on it%@",
                [
                    .plain("\(EscapedPath(path))"), .text(HostText.refusal(error, of: path)),
                    .text(
                        fromVariable.map {
                            HostText(
                                "kit.library.path",
                                "; it was found through LD_LIBRARY_PATH ('%@'): unset it, or name only folders that root or you alone can write",
                                [.plain("\(Escaped($0))")])
                        } ?? .plain("")),
                ])
        }
    }

    /// The `LD_LIBRARY_PATH` entry the library at `path` was found in, if any.
    private static func libraryPathFolder(holding path: String) -> String? {
        guard let variable = ProcessEnvironment.value("LD_LIBRARY_PATH") else { return nil }
        let folder = FilePaths.folder(of: path)
        let resolvedFolder = FilePaths.resolved(folder)
        return variable.split(separator: ":").map(String.init).first { entry in
            let absolute = FilePaths.absolute(entry, relativeTo: FilePaths.currentFolder)
            return absolute == folder || FilePaths.resolved(absolute) == resolvedFolder
        }
    }
}
