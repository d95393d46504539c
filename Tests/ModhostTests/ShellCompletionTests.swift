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
            return result.outputLines.filter { !$0.isEmpty }
        }
        #expect(try complete(["modhost", "mo"]) == ["modules"])
        #expect(try complete(["modhost", "ge"]) == ["geo"])
        #expect(try complete(["modhost", "--only", "G"]) == ["Geo"])
        #expect(try complete(["modhost", "bisect", "--keep", "S"]) == ["Settings"])
        #expect(try complete(["modhost", "--log-level", "w"]) == ["warn"])
        #expect(try complete(["modhost", "--con"]) == ["--config"])
        #expect(try complete(["modhost", "help", "comp"]) == ["completion"])
        // Every word in its place: an option's values, a command's argument and own options,
        // each once, and never the host's commands after a module's word.
        #expect(try complete(["modhost", "graph", "--format", ""]) == ["text", "dot", "svg"])
        #expect(try complete(["modhost", "completion", ""]) == ["bash", "zsh", "fish"])
        #expect(try complete(["modhost", "modules", "--"]).filter { $0 == "--json" }.count == 1)
        #expect(try complete(["modhost", "modules", "--t"]) == ["--timing"])
        #expect(try complete(["modhost", "graph", "--t"]).isEmpty, "--timing is modules' own")
        #expect(try complete(["modhost", "--only", "Geo", "gr"]) == ["graph"], "an option's value is no command")
        // A module's commands and their options, from its manifest's section (no library opened).
        #expect(try complete(["modhost", "geo", ""]) == ["list", "add", "rename", "remove"])
        #expect(try complete(["modhost", "geo", "a"]) == ["add"], "not 'auth': geo's words are geo's")
        #expect(try complete(["modhost", "geo", "add", "--c"]) == ["--config", "--country", "--city"])
        #expect(try complete(["modhost", "--only", "Geo", "geo", "list", "--j"]) == ["--json"])
        #expect(try complete(["modhost", "geo", "list", ""]).isEmpty)
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
        let format = try run(
            "/usr/bin/zsh",
            "source <(modhost completion zsh); setopt ksharrays; COMP_WORDS=(modhost graph --format ''); COMP_CWORD=3; _modhost; print -l -- \"${COMPREPLY[@]}\"",
            in: host)
        #expect(format.outputLines == ["text", "dot", "svg"], "\(format)")
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
        let words = try run(
            "/usr/bin/fish",
            #"modhost completion fish | source; complete -C"modhost graph --format "; echo SEP; complete -C"modhost completion "; echo SEP; complete -C"modhost modules --"; echo SEP; complete -C"modhost geo "; echo SEP; complete -C"modhost geo add --c""#,
            in: host)
        let parts = words.stdout.components(separatedBy: "SEP\n").map { $0.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } }
        #expect(parts.count == 5, "\(words.stdout)")
        guard parts.count == 5 else { return }
        #expect(parts[0] == ["dot", "svg", "text"] || parts[0] == ["text", "dot", "svg"], "\(parts[0])")
        #expect(Set(parts[1]) == ["bash", "zsh", "fish"], "\(parts[1])")
        #expect(parts[2].filter { $0 == "--json" }.count == 1 && parts[2].contains("--timing"), "\(parts[2])")
        #expect(!parts[3].contains("modules") && !parts[3].contains("graph"), "\(parts[3])")
        #expect(Set(parts[3]) == ["list", "add", "rename", "remove"], "\(parts[3])")
        #expect(parts[4].contains("--country") && parts[4].contains("--city"), "\(parts[4])")
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
        // The commands the world's modules declare in their manifests (no library opened).
        #expect(text.contains("MODULE COMMANDS") && text.contains("add [--country] [--city]"), "\(text)")
        #expect(host.crashRecords == "", "no library was opened")
        // The keys of the full-screen app, as '?' shows them.
        #expect(text.contains("KEYS") && text.contains("filter the items") && text.contains("move in the line"), "\(text)")
        #expect(!rendered.stderr.contains("warning"), "\(rendered.stderr)")
    }

    /// A person at a terminal: each shell in a tmux pane, the script loaded as its header says,
    /// a line typed and TAB pressed; what the pane shows is what the person sees.
    @Test(arguments: [
        ("bash", "/bin/bash --norc --noprofile", "source <(modhost completion bash)"),
        ("zsh", "/usr/bin/zsh -f", "source <(modhost completion zsh)"),
        ("fish", "/usr/bin/fish --no-config", "modhost completion fish | source"),
    ])
    func tabInARealShellInTmux(shell: String, command: String, load: String) throws {
        let host = try world()
        let tmux = try #require(["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let socket = "modhost-completion-\(shell)-\(getpid())"
        let conf = try TestEnvironment.temporaryFolder() + "/tmux.conf"
        try Data("set -g status off\n".utf8).write(to: URL(fileURLWithPath: conf))
        func run(_ arguments: [String]) throws -> ProcessResult {
            try ChildProcess.run(tmux, ["-L", socket, "-f", conf] + arguments, environment: host.environment, deadline: 120)
        }
        let environment = host.environment.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        _ = try run(["new-session", "-d", "-x", "120", "-y", "30", "-c", host.folder] + environment + [command])
        defer { _ = try? run(["kill-server"]) }
        func screen() throws -> String { try run(["capture-pane", "-p"]).stdout }
        // Generous: a wait ends when the text shows, and a full test run on two cores can take
        // many seconds to start a shell and the 'modhost' each TAB runs.
        func waitFor(_ text: String) throws -> String {
            let deadline = ContinuousClock.now + .seconds(120)
            var shown = try screen()
            while !shown.contains(text), ContinuousClock.now < deadline {
                usleep(50_000)
                shown = try screen()
            }
            return shown
        }
        // Echoed as typed it reads LOA""DED: only the shell's own answer is the word whole, so
        // a shell the loading stopped (SIGTTOU) never shows it.
        _ = try run(["send-keys", "-l", load + #"; echo LOA""DED"#])
        _ = try run(["send-keys", "Enter"])
        let loaded = try waitFor("\nLOADED\n")
        #expect(loaded.contains("\nLOADED\n"), "\(shell): \(loaded)")
        // A module's commands after its word.
        _ = try run(["send-keys", "-l", "modhost geo "])
        _ = try run(["send-keys", "Tab", "Tab"])
        let commands = try waitFor("rename")
        #expect(["list", "add", "rename", "remove"].allSatisfy { commands.contains($0) }, "\(shell): \(commands)")
        // The line cleared with Ctrl-U, a key in line with the others. Ctrl-C is none: the
        // terminal signals it on arrival and drops what is typed ahead, so sent while the second
        // TAB's completion still ran (a loaded machine) it interrupted the line typed after it.
        _ = try run(["send-keys", "C-u"])
        // An option's values.
        _ = try run(["send-keys", "-l", "modhost graph --format "])
        _ = try run(["send-keys", "Tab", "Tab"])
        let formats = try waitFor("svg")
        #expect(formats.contains("dot") && formats.contains("svg") && formats.contains("text"), "\(shell): \(formats)")
        #expect(host.crashRecords == "", "no library was opened")
    }
}
