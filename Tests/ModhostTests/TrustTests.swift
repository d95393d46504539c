import Foundation
import TestSupport
import Testing

/// The trust rules, with real files: modes, owners, FIFOs, folders, symlink loops and pins.
///
/// They run the host on files they make hostile by hand (owners, modes, FIFOs, links),
/// which a ModuleHostTesting world would make safe: TestSupport's ChildProcess, not a world.
@Suite struct TrustTests {
    /// A copy of libFixtureProvider.so in a new private folder; returns (folder, library).
    func privateCopy() throws -> (String, String) {
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        let path = folder + "/libFixtureProvider.so"
        try FileManager.default.copyItem(atPath: TestEnvironment.library("FixtureProvider"), toPath: path)
        chmod(path, 0o755)
        return (folder, path)
    }

    /// `modhost check` with FixtureProvider loaded from `library` (and `extra` fields).
    /// What `check` said of one entry, FixtureProvider's, in a `modules.json` of its own.
    struct Checked {
        let result: ProcessResult
        /// How check names the entry: `'…/modules.json': modules[0] ('FixtureProvider')`.
        let entry: String
        var status: Int32 { result.status }
        var stderr: String { result.stderr }
    }

    func check(library: String, extra: String = "") throws -> Checked {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", #""library": "\#(library)"\#(extra)"#)]))
        return Checked(result: try modhost(["--config", config, "check"]), entry: "'\(config)': modules[0] ('FixtureProvider')")
    }

    static func owner() -> String {
        geteuid() == 0 ? "root (uid 0)" : "\(String(cString: getpwuid(geteuid()).pointee.pw_name)) (uid \(geteuid()))"
    }

    @Test func aWorldWritableLibraryIsRefusedWithTheFix() throws {
        let (_, library) = try privateCopy()
        chmod(library, 0o666)
        let result = try check(library: library)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: \(result.entry): library '\(library)' is writable by group and others (mode 0666, owner \(Self.owner())), so another user could change it; fix it with 'chmod go-w \(library)'\n"
        )
    }

    @Test func aLibraryOnlyOthersCanWriteIsRefused() throws {
        // Group may not write it, others may: the others-write rule alone refuses it.
        let (_, library) = try privateCopy()
        chmod(library, 0o646)
        let result = try check(library: library)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: \(result.entry): library '\(library)' is writable by others (mode 0646, owner \(Self.owner())), so another user could change it; fix it with 'chmod go-w \(library)'\n"
        )
    }

    @Test func aLibraryWhoseDescriptorNamesAnotherModuleIsRefusedBeforeItIsOpened() throws {
        // Its constructor leaves evidence when it runs: refused from its file, it never does.
        let library = try HostileLibrary.armedCopy(of: "HostileLeavesEvidence")
        let evidence = try TestEnvironment.temporaryFolder() + "/evidence"
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Other", #""library": "\#(library)""#)]))
        for command in ["check", "modules"] {
            let result = try modhost(["--config", config, command], environment: ["MODHOST_TEST_EVIDENCE": evidence])
            #expect(
                (command == "check" ? result.stderr : result.stdout).contains(
                    "library '\(library)' holds module 'HostileLeavesEvidence', not 'Other'; fix 'name' or 'library' in modules.json"),
                "\(result.stdout)\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: evidence), "the library's constructor ran")
    }

    @Test func aKitFoundThroughLDLibraryPathInAFolderOthersCanWriteRunsNoModule() throws {
        let folder = try TestEnvironment.temporaryFolder()
        try FileManager.default.copyItem(atPath: TestEnvironment.library("ModuleKit"), toPath: folder + "/libModuleKit.so")
        chmod(folder, 0o777)
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", "")]))
        let result = try modhost(["--config", config, "check"], environment: ["LD_LIBRARY_PATH": folder])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: '\(config)': modules[0] ('FixtureProvider'): the host's own library '\(folder)/libModuleKit.so' is in folder '\(folder)', which is writable by group and others (mode 0777, owner \(Self.owner())), so another user could change it; fix it with 'chmod go-w \(folder)'; no module runs on it; it was found through LD_LIBRARY_PATH ('\(folder)'): unset it, or name only folders that root or you alone can write\n"
        )
    }

    @Test func anLDLibraryPathFolderAnyoneMayAddToRunsNoModule() throws {
        // The dynamic linker looks there before a module's own run path: a sticky folder is no
        // better than an open one, anyone may add a library under a name not yet taken.
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o1777)
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", "")]))
        let result = try modhost(["--config", config, "check"], environment: ["LD_LIBRARY_PATH": folder])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: '\(config)': modules[0] ('FixtureProvider'): LD_LIBRARY_PATH names '\(folder)', which is writable by group and others (mode 01777, owner \(Self.owner())), so another user could change it; fix it with 'chmod go-w \(folder)'; no module runs while it does\n"
        )
        // An empty entry is the current folder to the dynamic linker, and is checked as one.
        let empty = try modhost(["--config", config, "check"], environment: ["LD_LIBRARY_PATH": ":/usr/lib"], in: folder)
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("LD_LIBRARY_PATH names '.', which resolves to '\(folder)', which is writable"), "\(empty.stderr)")
    }

    /// Run paths relative to the library's folder: as written, and after a run of absolute
    /// folders longer than the one read its needed names share (256 bytes past the last one's
    /// start), which is then read on its own, to its end.
    static let relativeRunPaths = ["$ORIGIN/../lib", String(repeating: "/opt/nowhere", count: 40) + ":$ORIGIN/../lib"]

    @Test(arguments: relativeRunPaths)
    func aRunPathRelativeToTheLibrarysFolderIsRefusedBeforeItLoads(runPath: String) throws {
        // Loaded from its checked file, $ORIGIN is no longer its folder: "$ORIGIN/../lib" would
        // send the linker to a folder nobody checked. Made with gcc, as a third party might.
        let library = try HostileLibrary.armedCopy(of: "HostileLeavesEvidence")
        let folder = (library as NSString).deletingLastPathComponent
        let source = Self.repository + "/Tests/Fixtures/Hostile/HostileLeavesEvidence/HostileLeavesEvidence.c"
        let built = try ChildProcess.run(
            "/usr/bin/gcc", ["-shared", "-fPIC", "-Wl,-rpath,\(runPath)", "-o", folder + "/libRelative.so", source])
        #expect(built.status == 0, "\(built.stderr)")
        try HostileLibrary.arm(libraryAt: folder + "/libRelative.so", name: "HostileLeavesEvidence")
        let evidence = try TestEnvironment.temporaryFolder() + "/evidence"
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("HostileLeavesEvidence", #""library": "\#(folder)/libRelative.so""#)]))
        let result = try modhost(["--config", config, "modules"], environment: ["MODHOST_TEST_EVIDENCE": evidence])
        #expect(
            result.stdout.contains(
                "has run path '$ORIGIN/../lib', relative to its own folder, which the host cannot honour while it loads the file it checked"
            ),
            "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: evidence), "its constructor never ran")
    }

    @Test func aNeededNameThatIsNotUTF8IsRefusedBeforeItLoads() throws {
        // The linker looks a needed name up by its bytes; a name the check could only read
        // repaired (U+FFFD) would not be the file it looks beside the module for.
        let library = try HostileLibrary.armedCopy(of: "HostileLeavesEvidence")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: library)))
        let name = Array("libc.so.6".utf8) + [0]
        let at = try #require((0...(bytes.count - name.count)).first { bytes[$0..<$0 + name.count].elementsEqual(name) })
        bytes[at + 3] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: library))
        let evidence = try TestEnvironment.temporaryFolder() + "/evidence"
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("HostileLeavesEvidence", #""library": "\#(library)""#)]))
        let result = try modhost(["--config", config, "modules"], environment: ["MODHOST_TEST_EVIDENCE": evidence])
        #expect(result.stdout.contains("names a needed library or a run path that is not UTF-8"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: evidence), "its constructor never ran")
    }

    /// Ways a file could show the check other dependencies than the dynamic linker reads:
    /// its dynamic section's header saying "not dynamic" (the linker reads no section header),
    /// its dynamic segment's size saying one entry (the linker reads on to DT_NULL), and two
    /// segments sharing a page (the linker's mapping of the second replaces the first's).
    static let hidings = ["section header", "dynamic size", "shared page"]

    @Test(arguments: hidings)
    func aRunPathTheFileHidesIsStillRefused(hiding: String) throws {
        let library = try HostileLibrary.armedCopy(of: "HostileLeavesEvidence")
        let folder = (library as NSString).deletingLastPathComponent
        let source = Self.repository + "/Tests/Fixtures/Hostile/HostileLeavesEvidence/HostileLeavesEvidence.c"
        let hidden = folder + "/libHidden.so"
        let built = try ChildProcess.run("/usr/bin/gcc", ["-shared", "-fPIC", "-Wl,-rpath,$ORIGIN/../lib", "-o", hidden, source])
        #expect(built.status == 0, "\(built.stderr)")
        try HostileLibrary.arm(libraryAt: hidden, name: "HostileLeavesEvidence")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: hidden)))
        func integer(_ at: Int, _ width: Int) -> Int { (0..<width).reversed().reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func set(_ at: Int, _ width: Int, _ value: Int) {
            for index in 0..<width { bytes[at + index] = UInt8((value >> (8 * index)) & 0xff) }
        }
        // Elf64_Ehdr: e_phoff at 32, e_shoff at 40, e_phnum at 56, e_shnum at 60; Elf64_Phdr: 56
        // bytes, p_type at 0, p_vaddr at 16, p_filesz at 32; Elf64_Shdr: 64 bytes, sh_type at 4.
        let programs = (0..<integer(56, 2)).map { integer(32, 8) + $0 * 56 }
        var patched = 0
        switch hiding {
        case "section header":
            for index in 0..<integer(60, 2) where integer(integer(40, 8) + index * 64 + 4, 4) == 6 {  // SHT_DYNAMIC
                set(integer(40, 8) + index * 64 + 4, 4, 1)  // SHT_PROGBITS
                patched += 1
            }
        case "dynamic size":
            for header in programs where integer(header, 4) == 2 {  // PT_DYNAMIC
                set(header + 32, 8, 16)
                patched += 1
            }
        default:
            let loads = programs.filter { integer($0, 4) == 1 }  // PT_LOAD
            try #require(loads.count >= 2)
            set(loads[1] + 16, 8, integer(loads[0] + 16, 8) + (integer(loads[1] + 16, 8) % 4_096))
            patched += 1
        }
        #expect(patched == 1)
        try Data(bytes).write(to: URL(fileURLWithPath: hidden))
        let evidence = try TestEnvironment.temporaryFolder() + "/evidence"
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("HostileLeavesEvidence", #""library": "\#(hidden)""#)]))
        let result = try modhost(["--config", config, "modules"], environment: ["MODHOST_TEST_EVIDENCE": evidence])
        let said =
            hiding == "shared page"
            ? "maps its segments over one another or out of order" : "has run path '$ORIGIN/../lib', relative to its own folder"
        #expect(result.stdout.contains(said), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: evidence), "its constructor never ran")
    }

    @Test func aLibraryBesideItThatNeedsItBackStillLoads() throws {
        // libHostileLeavesEvidence.so needs libCycle.so beside it, which needs it in turn: the
        // library is linked once in the folder the linker finds both in.
        let folder = try TestEnvironment.temporaryFolder()
        let source = Self.repository + "/Tests/Fixtures/Hostile/HostileLeavesEvidence/HostileLeavesEvidence.c"
        let empty = folder + "/cycle.c"
        try Data("int modhost_cycle;\n".utf8).write(to: URL(fileURLWithPath: empty))
        let steps: [[String]] = [
            ["-shared", "-fPIC", "-o", folder + "/libCycle.so", empty],
            [
                "-shared", "-fPIC", "-o", folder + "/libHostileLeavesEvidence.so", source, "-L" + folder, "-Wl,--no-as-needed", "-lCycle",
                "-Wl,-rpath,$ORIGIN",
            ],
            [
                "-shared", "-fPIC", "-o", folder + "/libCycle.so", empty, "-L" + folder, "-Wl,--no-as-needed", "-lHostileLeavesEvidence",
                "-Wl,-rpath,$ORIGIN",
            ],
        ]
        for step in steps {
            let built = try ChildProcess.run("/usr/bin/gcc", step)
            #expect(built.status == 0, "\(built.stderr)")
        }
        let library = folder + "/libHostileLeavesEvidence.so"
        try HostileLibrary.arm(libraryAt: library, name: "HostileLeavesEvidence")
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("HostileLeavesEvidence", #""library": "\#(library)""#)]))
        let result = try modhost(["--config", config, "modules"])
        // Loaded: it fails only at the handshake, which a C fixture does not answer.
        #expect(result.stdout.contains("has no entry symbol 'modhost_module_entry'"), "\(result.stdout)")
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .path

    @Test func aGroupWritableFolderAboveTheLibraryIsRefused() throws {
        let (folder, library) = try privateCopy()
        chmod(folder, 0o770)
        let result = try check(library: library)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: \(result.entry): library '\(library)' is in folder '\(folder)', which is writable by its group (mode 0770, owner \(Self.owner())), so another user could change it; fix it with 'chmod go-w \(folder)'\n"
        )
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func aLibraryOwnedByAnotherUserIsRefused() throws {
        let (_, library) = try privateCopy()
        #expect(chown(library, 65534, 65534) == 0)
        let result = try check(library: library)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("modhost: error: \(result.entry): library '\(library)' is owned by "))
        #expect(
            result.stderr.hasSuffix(
                "(uid 65534) (mode 0755), not by root, so another user could change it; fix it with 'chown root \(library)' or move it\n"))
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to run the host as nobody"))
    func nobodyRefusesAModulesFileItCannotTrustAndAcceptsRootsLibraries() throws {
        // As nobody, a modules.json owned by root in a root-owned folder is trusted; one that
        // nobody's group or others may write is not. setpriv really drops to uid 65534.
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o755)
        let config = folder + "/modules.json"
        try Data(TestEnvironment.modulesJSON([("FixtureProvider", "")]).utf8).write(to: URL(fileURLWithPath: config))
        chmod(config, 0o644)
        let data = try TestEnvironment.temporaryFolder()
        chmod(data, 0o777)
        let arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", TestEnvironment.modhost, "--config", config, "check"]
        // Its probes' folders go in a temporary folder nobody may write in, not the test run's.
        let environment = ["MODHOST_DATA_DIR": data + "/nobody", "TMPDIR": "/tmp"]
        let trusted = try ChildProcess.run("/usr/bin/setpriv", arguments, environment: environment)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        chmod(config, 0o646)
        let refused = try ChildProcess.run("/usr/bin/setpriv", arguments, environment: environment)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "modhost: error: '\(config)': is writable by others (mode 0646, owner root (uid 0)), so another user could change it; fix it with 'chmod go-w \(config)'\n"
        )
    }

    @Test func aFIFOIsRefusedAtOnceNeverOpened() throws {
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        let fifo = folder + "/libFixtureProvider.so"
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try check(library: fifo)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: \(result.entry): library '\(fifo)' is a FIFO (named pipe), not a regular file; give the path of a regular file\n"
        )
        let config = folder + "/modules.json"
        #expect(mkfifo(config, 0o600) == 0)
        let asConfig = try modhost(["--config", config, "check"])
        #expect(asConfig.status == 1)
        #expect(
            asConfig.stderr == "modhost: error: '\(config)': is a FIFO (named pipe), not a regular file; give the path of a regular file\n")
    }

    @Test func aFolderAndASymlinkLoopEachGetTheirOwnMessage() throws {
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        let folderResult = try check(library: folder)
        #expect(
            folderResult.stderr
                == "modhost: error: \(folderResult.entry): library '\(folder)' is a folder, not a regular file; give the path of a regular file\n"
        )
        let first = folder + "/libA.so"
        let second = folder + "/libB.so"
        #expect(symlink(second, first) == 0)
        #expect(symlink(first, second) == 0)
        let loop = try check(library: first)
        #expect(loop.status == 1)
        #expect(loop.stderr == "modhost: error: \(loop.entry): library '\(first)' is a symlink loop; point it at a real file\n")
    }

    @Test func aSHA256PinIsCheckedBeforeLoadAndModulesJSONReportsTheHash() throws {
        // The build folder's own library: a copy elsewhere would not find its neighbours.
        let library = TestEnvironment.library("FixtureProvider")
        let sum = try ChildProcess.run("/usr/bin/sha256sum", [library])
        let expected = String(sum.stdout.prefix(64))
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", #""library": "\#(library)""#)]))
        let report = try modhost(["--config", config, "modules", "--json"])
        #expect(report.stdout.contains(#""sha256":"\#(expected)""#), "the host's hash agrees with sha256sum")
        #expect(try check(library: library, extra: #", "sha256": "\#(expected.uppercased())""#).status == 0)
        let wrong = String(repeating: "0", count: 64)
        let refused = try check(library: library, extra: #", "sha256": "\#(wrong)""#)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "modhost: error: \(refused.entry): library '\(library)' has sha256 \(expected), but modules.json pins \(wrong); if the new library is the one you want, update 'sha256' (see 'modhost modules --json')\n"
        )
    }

    @Test func aWorldWritableModulesFileIsRefusedBeforeItIsRead() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", "")]))
        chmod(config, 0o666)
        let result = try modhost(["--config", config, "modules"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "modhost: error: '\(config)': is writable by group and others (mode 0666, owner \(Self.owner())), so another user could change it; fix it with 'chmod go-w \(config)'\n"
        )
    }

    @Test func anOversizedModulesFileAndAnOverlongStringAreRefusedWithoutEchoingThem() throws {
        let big = try TestEnvironment.write(#"{"modules": []}"# + String(repeating: " ", count: 2 << 20))
        let tooBig = try modhost(["--config", big, "check"])
        #expect(tooBig.status == 1)
        #expect(tooBig.stderr == "modhost: error: '\(big)': is 2097167 bytes, more than the 1048576 allowed\n")
        let long = try TestEnvironment.write(
            #"{"modules": [{"name": ""# + String(repeating: "x", count: 20_000) + #"", "enabled": true}]}"#)
        let tooLong = try modhost(["--config", long, "check"])
        #expect(tooLong.status == 1)
        #expect(tooLong.stderr.hasPrefix("modhost: error: '\(long)': holds a string longer than 16384 bytes, starting 'xxxx"))
        #expect(tooLong.stderr.count < 400, "the value is cut, not echoed whole")
    }

    @Test func valuesInMessagesCannotForgeLinesOrSendEscapes() throws {
        let config = try TestEnvironment.write(
            #"{"modules": [{"name": "Geo\nmodhost: error: forged\u001b[31m", "enabled": true}]}"#)
        let result = try modhost(["--config", config, "check"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains(#"Geo\nmodhost: error: forged\u{1B}[31m"#))
        let unknown = try modhost(["--config", config, "\u{1B}]0;title\u{07}"])
        #expect(!unknown.stderr.contains("\u{1B}"))
    }
}
