import Foundation
@_spi(Host) import ModuleKit
import Testing

/// A checked file is opened relative to the folder that was checked, held open for the
/// process: a folder put in its place at the same path is not gone through without its own
/// check, and a folder removed and made again is walked afresh.
@Suite struct TrustedFolderTests {
    /// A folder of its own in the temporary folder, with `file` holding `text`.
    func folder(_ text: String, mode: mode_t = 0o755) throws -> String {
        let path = NSTemporaryDirectory() + "trusted-folder-" + UUID().uuidString
        try #require(mkdir(path, 0o755) == 0)
        try write(text, in: path)
        try #require(chmod(path, mode) == 0)
        return path
    }

    func write(_ text: String, in folder: String) throws {
        try #require(FileManager.default.createFile(atPath: folder + "/file", contents: Data(text.utf8)))
        try #require(chmod(folder + "/file", 0o644) == 0)
    }

    /// Reading `folder`'s file is refused, naming `folder` as writable by others.
    func expectRefusedAsWritableByOthers(_ folder: String) {
        #expect {
            _ = try read(folder + "/file")
        } throws: { error in
            guard case .writableByOthers(let named, _, _, true) = error as? TrustError else { return false }
            return named == folder
        }
    }

    func read(_ path: String) throws -> String {
        String(decoding: try TrustedFile(path: path, maximumSize: 1 << 20).contents(), as: UTF8.self)
    }

    @Test func aFolderSwappedAtItsPathIsNotGoneThroughWhileTheCheckedOneHoldsTheFile() throws {
        let path = try folder("checked\n")
        #expect(try read(path + "/file") == "checked\n")
        // Another folder takes the checked one's path: the open goes on in the folder checked.
        try #require(rename(path, path + ".old") == 0)
        try #require(mkdir(path, 0o755) == 0)
        try write("swapped in\n", in: path)
        #expect(try read(path + "/file") == "checked\n")
        // Once the checked folder no longer has the file, the path is walked and checked again.
        try FileManager.default.removeItem(atPath: path + ".old")
        #expect(try read(path + "/file") == "swapped in\n")
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func aSymlinkLeftInTheHeldFolderDoesNotHideTheFileNowAtItsPath() throws {
        let target = try folder("linked\n")
        let path = NSTemporaryDirectory() + "trusted-folder-" + UUID().uuidString
        try #require(mkdir(path, 0o755) == 0)
        try #require(symlink(target + "/file", path + "/file") == 0)
        #expect(try read(path + "/file") == "linked\n")
        // The folder with the link moves away (still there, still held); a new one with a
        // plain file takes its path: the file at the path is the one read.
        try #require(rename(path, path + ".old") == 0)
        try #require(mkdir(path, 0o755) == 0)
        try write("plain\n", in: path)
        #expect(try read(path + "/file") == "plain\n")
        for folder in [path, path + ".old", target] { try FileManager.default.removeItem(atPath: folder) }
    }

    @Test func aPathEndingInASlashNamesItsFile() throws {
        let path = try folder("checked\n")
        #expect(try read(path + "/file/") == "checked\n")
        #expect(try read(path + "/./file") == "checked\n")
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func aFolderMadeAgainAtItsPathIsCheckedBeforeItsFileIsRead() throws {
        let path = try folder("checked\n")
        #expect(try read(path + "/file") == "checked\n")
        try FileManager.default.removeItem(atPath: path)
        // The same path, now a folder anyone may write: refused, not read.
        try #require(mkdir(path, 0o755) == 0)
        try write("planted\n", in: path)
        try #require(chmod(path, 0o777) == 0)
        expectRefusedAsWritableByOthers(path)
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func aFileInAFolderOthersMayWriteIsRefusedNamingTheFolder() throws {
        let path = try folder("loose\n", mode: 0o777)
        expectRefusedAsWritableByOthers(path)
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func aDeviceIsRefusedWithoutBeingOpened() throws {
        // /dev/null's folder is root's and closed to others: the file itself is refused, by
        // its kind, from the lstat before any open.
        #expect(throws: TrustError.notRegular("/dev/null", "a character device")) {
            _ = try TrustedFile(path: "/dev/null", maximumSize: 1)
        }
    }

    /// A path in a trust refusal is shown whole (its control characters escaped): cut at 120
    /// characters as a value from outside is, a file in a deep folder lost its own name.
    @Test func aRefusalNamesALongPathWholeAndAValueIsStillCut() throws {
        let deep = "/srv/" + String(repeating: "deep-folder/", count: 15) + "lib\u{1B}Odd.so"
        let said = TrustError.writableByOthers(deep, owner: "root (uid 0)", mode: 0o100666, isFolder: false).description
        #expect(said.contains("/srv/" + String(repeating: "deep-folder/", count: 15) + "lib\\u{1B}Odd.so' is writable"), "\(said)")
        #expect(!said.contains("characters)"), "\(said)")
        #expect(Escaped(deep).description.hasSuffix("… (195 characters)"))
        #expect(EscapedPath(String(repeating: "x", count: 5_000)).description.hasSuffix("… (5000 characters)"))
    }
}
