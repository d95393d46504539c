import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The completion scripts and the manual page come from the one command table, and work in
/// the real shells and in `man`: module names are read from modules.json, and no module code
/// runs to complete them (a library whose constructor aborts is one of the modules).
@Suite struct ShellCompletionTests {
    func world() throws -> TestHost {
        let hostile = try HostileLibrary.armedCopy(of: "HostileAbortInConstructor")
        return try TestHost(
            entries: [("Geo", ""), ("Settings", ""), ("HostileAbortInConstructor", #""library": "\#(hostile)""#)],
            environment: ["PATH": TestEnvironment.buildFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
    }

    /// Runs `script` with `shell -c`, in the world's environment.
    func run(_ shell: String, _ script: String, in host: TestHost) throws -> CommandResult {
        let program = try RunningProgram([shell, "-c", script], environment: host.environment, directory: host.folder)
        program.closeInput()
        return try program.wait(timeout: .seconds(60))
    }

    @Test func bashCompletesCommandsOptionsAndModuleNames() throws {
        let host = try world()
        func complete(_ words: [String]) throws -> [String] {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try run(
                "/bin/bash",
                "source <(modhost completion bash); COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _modhost; printf '%s\\n' \"${COMPREPLY[@]}\"",
                in: host)
            #expect(result.succeeded, "\(result)")
            return result.outputLines
        }
        #expect(try complete(["modhost", "mo"]) == ["modules"])
        #expect(try complete(["modhost", "ge"]) == ["geo"])
        #expect(try complete(["modhost", "--only", "G"]) == ["Geo"])
        #expect(try complete(["modhost", "bisect", "--keep", "S"]) == ["Settings"])
        #expect(try complete(["modhost", "--log-level", "w"]) == ["warn"])
        #expect(try complete(["modhost", "--con"]) == ["--config"])
        #expect(try complete(["modhost", "help", "comp"]) == ["completion"])
        #expect(host.crashRecords == "", "no library was opened")
    }

    @Test func zshLoadsItThroughBashcompinit() throws {
        let host = try world()
        // zsh filters the candidates itself as a person types: here, the unfiltered list.
        let result = try run(
            "/usr/bin/zsh",
            "source <(modhost completion zsh); setopt ksharrays; COMP_WORDS=(modhost --only G); COMP_CWORD=2; _modhost; print -l -- \"${COMPREPLY[@]}\"; complete -p modhost",
            in: host)
        #expect(result.succeeded, "\(result)")
        #expect(result.outputLines.contains("Geo") && result.outputLines.contains("complete -F _modhost modhost"), "\(result)")
    }

    @Test func fishCompletesCommandsOptionsAndModuleNames() throws {
        let host = try world()
        let result = try run(
            "/usr/bin/fish",
            #"modhost completion fish | source; complete -C"modhost --on"; complete -C"modhost --only G"; complete -C"modhost ge"; complete -C"modhost --log-level w""#,
            in: host)
        #expect(result.succeeded, "\(result)")
        let firsts = result.outputLines.map { String($0.prefix { $0 != "\t" }) }
        #expect(firsts == ["--only", "Geo", "geo", "warn"], "\(result.stdout)")
    }

    @Test func theManualRendersWithManAndHasEveryCommandAndOption() throws {
        let host = try world()
        let folder = try TestEnvironment.temporaryFolder()
        let page = folder + "/modhost.1"
        try Data(try host.run("manual").stdout.utf8).write(to: URL(fileURLWithPath: page))
        let rendered = try run("/bin/sh", "MANWIDTH=100 man -l '\(page)' | col -b", in: host)
        #expect(rendered.succeeded, "\(rendered)")
        let text = rendered.stdout
        #expect(text.contains("MODHOST(1)"))
        for usage in ["modules [--json]", "bisect -- ARGS...", "completion SHELL", "--config PATH", "--keep NAME", "--log-level LEVEL"] {
            #expect(text.contains(usage), "\(usage) is in the manual")
        }
        #expect(!rendered.stderr.contains("warning"), "\(rendered.stderr)")
    }
}
