import Testing

@testable import HostCommandLine

/// The commands `modhost new` prints for a person to copy: a path is quoted for a POSIX shell
/// when it needs it, and a quote inside stays inside, whatever follows it.
@Suite struct ShellQuotedTests {
    @Test(arguments: [
        ("/tmp/Notes", "/tmp/Notes"), ("my notes", "'my notes'"), ("it's", "'it'\\''s'"), ("Ünïcode", "'Ünïcode'"),
        ("a'\u{301}; rm -rf ~", "'a'\\''\u{301}; rm -rf ~'"), ("$(id)", "'$(id)'"),
    ])
    func aPathIsQuotedWhenItNeedsIt(path: String, quoted: String) {
        #expect(NewModuleCommand.shellQuoted(path) == quoted)
    }
}
