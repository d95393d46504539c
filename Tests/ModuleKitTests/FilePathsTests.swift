import Foundation
import ModuleKit
import Testing

/// The kit's path arithmetic, with its fast path for paths already in form, against
/// Foundation's `URL.standardized`.
@Suite struct FilePathsTests {
    static let paths = [
        "/", "/a", "/a/b.so", "/a/./b", "/a/b/", "/a/..", "/a/../b", "/..", "/.hidden/x", "/a/..b/c.", "/a/.../b", "/a/b/.",
        "lib/x.so", "./x", "../x", "a/../../x", ".so", "..so",
    ]

    @Test(arguments: paths)
    func aPathIsMadeAbsoluteAsFoundationStandardizesIt(path: String) {
        let folder = "/opt/app"
        let expected = URL(fileURLWithPath: path.hasPrefix("/") ? path : folder + "/" + path).standardized.path
        #expect(FilePaths.absolute(path, relativeTo: folder) == expected)
    }

    @Test func repeatedSlashesAreOneAsTheKernelHasThem() {
        // Foundation keeps "//"; the kernel reads it as one slash, and so does the host.
        #expect(FilePaths.absolute("/a//b", relativeTo: "/") == "/a/b")
        #expect(FilePaths.absolute("x//y/", relativeTo: "/opt//app") == "/opt/app/x/y")
    }

    @Test func aPathAlreadyInFormIsReturnedAsItIs() {
        for path in ["/", "/a", "/a/b/libX.so", "/.hidden/x", "/a/..b/c.", "/a/.../b"] {
            #expect(FilePaths.absolute(path, relativeTo: "/elsewhere") == path)
        }
    }

    /// The folder of a path: "/a/b" → "/a", "/a" → "/", "b" → ".", trailing slashes dropped.
    @Test func aPathsFolderIsWhatComesBeforeItsLastSlash() {
        let cases = [
            ("/a/b", "/a"), ("/a", "/"), ("/", "/"), ("//", "/"), ("b", "."), ("", "."), ("/a/b/", "/a"), ("/a/b//", "/a"),
            ("a/b", "a"), ("/été/lib.so", "/été"), ("./x", "."), ("a/", "."),
            // A slash the kernel reads as one, though a combining mark after it makes one
            // Character of the two.
            ("/a/\u{301}b", "/a"), ("/e\u{301}/lib.so", "/e\u{301}"),
        ]
        for (path, folder) in cases { #expect(FilePaths.folder(of: path) == folder, "\(path)") }
    }
}
