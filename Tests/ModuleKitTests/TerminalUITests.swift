import ModuleKit
import Testing

func makeUI(_ lines: [String]) -> (TerminalUI, ScriptedTerminal) {
    let terminal = ScriptedTerminal(lines: lines)
    return (TerminalUI(terminal: terminal, labels: { label in label == .choose ? "Choose" : label.rawValue }), terminal)
}

@MainActor
@Suite struct TerminalUITests {
    @Test func aMenuAsksUntilTheAnswerIsValid() {
        let (ui, terminal) = makeUI(["", "0", "x", "3", " 2 "])
        #expect(ui.menu("Pick", ["One", "Two"]) == 1)
        #expect(terminal.output.contains("  1. One\n  2. Two\n"))
        #expect(terminal.output.components(separatedBy: "! prompt.choose.between").count == 5)
        #expect(!terminal.output.contains("\u{1B}["), "no escape codes on a plain terminal")
    }

    @Test func aMenuEndsAtEndOfInput() {
        let (ui, _) = makeUI([])
        #expect(ui.menu("Pick", ["One"]) == nil)
    }

    @Test func aFormShowsItsValidationMessagesAndAsksAgain() {
        let (ui, terminal) = makeUI(["ann", "x", "ann@example.com", "secret"])
        let form = Form(
            title: "Sign up",
            fields: [.init(key: "email", label: "Email"), .init(key: "password", label: "Password", isSecret: true)],
            validate: { $0["email", default: ""].contains("@") ? [] : ["Email is not valid."] })
        #expect(ui.fill(form) == .submitted(["email": "ann@example.com", "password": "secret"]))
        #expect(terminal.output.contains("! Email is not valid.\n"))
    }

    @Test func aFormGoesBackOnAnEmptyFirstFieldAndEndsWithInput() {
        let form = Form(title: "T", fields: [.init(key: "a", label: "A"), .init(key: "b", label: "B")])
        #expect(makeUI(["  "]).0.fill(form) == .cancelled)
        #expect(makeUI(["a"]).0.fill(form) == .endOfInput)
    }

    @Test func continueCancelRunsTheHandlerOnlyOnContinue() {
        var ran = 0
        #expect(!makeUI(["1"]).0.confirm("Log Out", "Sure?") { ran += 1 })
        #expect(makeUI(["2"]).0.confirm("Log Out", "Sure?") { ran += 1 })
        #expect(ran == 1)
    }

    @Test func okAndHelpAlerts() {
        let (ui, terminal) = makeUI(["", "2", "1"])
        ui.alertOK("Saved", "Your city was saved.")
        ui.alertOKHelp("Error", "Could not save.", help: "Check the disk.")
        #expect(terminal.output.contains("Your city was saved."))
        #expect(terminal.output.contains("Check the disk.\n"))
    }
}

@MainActor
@Suite struct NavigatorTests {
    final class Scripted: Screen {
        let name: String
        var steps: [Navigation]
        let log: Log
        init(_ name: String, _ steps: [Navigation], _ log: Log) {
            self.name = name
            self.steps = steps
            self.log = log
        }
        func show(_ ui: TerminalUI) -> Navigation {
            log.names.append(name)
            return steps.isEmpty ? .quit : steps.removeFirst()
        }
    }

    final class Log {
        var names: [String] = []
    }

    @Test func pushPopReplaceAndQuit() {
        let log = Log()
        let navigator = Navigator(ui: makeUI([]).0)
        let detail = Scripted("detail", [.stay, .pop], log)
        let other = Scripted("other", [.quit], log)
        let root = Scripted("root", [.push(detail), .replaceRoot(other)], log)
        navigator.run(root: root)
        #expect(log.names == ["root", "detail", "detail", "root", "other"])
        #expect(navigator.depth == 0)
    }

    @Test func presentAndRequestRootApplyBeforeTheNextScreen() {
        let log = Log()
        let navigator = Navigator(ui: makeUI([]).0)
        let welcome = Scripted("welcome", [.quit], log)
        let login = Scripted("login", [.pop], log)
        let home = HomeLike(navigator: navigator, login: login, welcome: welcome, log: log)
        navigator.run(root: home)
        #expect(log.names == ["home", "login", "home", "welcome"])
    }

    final class HomeLike: Screen {
        let navigator: Navigator
        let login: Scripted
        let welcome: Scripted
        let log: Log
        var visits = 0
        init(navigator: Navigator, login: Scripted, welcome: Scripted, log: Log) {
            self.navigator = navigator
            self.login = login
            self.welcome = welcome
            self.log = log
        }
        func show(_ ui: TerminalUI) -> Navigation {
            log.names.append("home")
            visits += 1
            if visits == 1 { navigator.present(login) } else { navigator.requestRoot(welcome) }
            return .stay
        }
    }

    @Test func aPoppedScreenIsFreed() {
        weak var weakDetail: Scripted?
        let log = Log()
        let navigator = Navigator(ui: makeUI([]).0)
        do {
            let detail = Scripted("detail", [.pop], log)
            weakDetail = detail
            navigator.run(root: Scripted("root", [.push(detail), .quit], log))
        }
        #expect(weakDetail == nil)
    }
}
