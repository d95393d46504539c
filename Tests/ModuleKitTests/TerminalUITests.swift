import Testing

@testable import ModuleKit

func makeUI(_ lines: [String]) -> (TerminalUI, ScriptedTerminal) {
    let terminal = ScriptedTerminal(lines: lines)
    return (TerminalUI(terminal: terminal, labels: { label in label == .choose ? "Choose" : label.rawValue }), terminal)
}

@MainActor
@Suite struct TerminalUITests {
    @Test func aMenuAsksUntilTheAnswerIsValid() {
        let (ui, terminal) = makeUI(["x", "3", " 2 "])
        #expect(ui.menu("Pick", ["One", "Two"]) == .item(1))
        #expect(terminal.output.contains("  1. One\n  2. Two\n  0 button.back · q app.quit\nChoose: "))
        #expect(terminal.output.components(separatedBy: "! prompt.choose.among").count == 3)
        #expect(!terminal.output.contains("\u{1B}["), "no escape codes on a plain terminal")
    }

    /// A module's numbers fewer than its items: the items without one are not shown, in the
    /// line mode as full screen (where reading a number past the last one would trap).
    @Test func itemsBeyondTheLastNumberAreNotShown() {
        let paired = TerminalUI.numbered(["One", "Two", "Three"], [7, 9])
        #expect(paired.items == ["One", "Two"] && paired.keys == [7, 9])
        #expect(TerminalUI.numbered(["One"], [4, 5]).keys == [4])
        #expect(TerminalUI.numbered(["One", "Two"], nil).keys == [1, 2])
        let (ui, terminal) = makeUI(["9"])
        #expect(ui.menu("Pick", ["One", "Two", "Three"], numbers: [7, 9]) == .item(1))
        #expect(!terminal.output.contains("Three"))
    }

    @Test(arguments: [("0", MenuChoice.back), ("", .back), ("  ", .back), ("q", .quit), ("Q", .quit)])
    func zeroAndEmptyGoBackAndQQuits(answer: String, choice: MenuChoice) {
        #expect(makeUI([answer]).0.menu("Pick", ["One"]) == choice)
    }

    @Test func aMenuEndsAtEndOfInput() {
        #expect(makeUI([]).0.menu("Pick", ["One"]) == .quit)
    }

    @Test func itemsKeepTheirNumbersAndShortcutsAreLetters() {
        let (ui, terminal) = makeUI(["1", "0", "", "N", "4"])
        let shortcuts = [MenuShortcut(key: "n", label: "Next")]
        #expect(ui.menu("Home", ["Photos", "Places"], numbers: [2, 4], canGoBack: false, shortcuts: shortcuts) == .shortcut("n"))
        #expect(terminal.output.contains("  2. Photos\n  4. Places\n  n Next · q app.quit\n"))
        // 1 is no item's number; at the first screen 0 and an empty answer are not Back.
        #expect(terminal.output.components(separatedBy: "! prompt.choose.among").count == 4)
        #expect(makeUI(["4"]).0.menu("Home", ["Photos", "Places"], numbers: [2, 4]) == .item(1))
    }

    /// A person at a terminal reads the numbers right-aligned; a pipe gets them as it always did.
    @Test(arguments: [true, false])
    func numbersAreRightAlignedOnATerminal(interactive: Bool) {
        let terminal = ScriptedTerminal(lines: ["21"], isInteractive: interactive)
        let ui = TerminalUI(terminal: terminal, labels: { $0.rawValue })
        #expect(ui.menu("Results", ["Cat", "Dog"], numbers: [3, 21]) == .item(1))
        let lines = interactive ? "\n   3. Cat\n  21. Dog\n" : "\n  3. Cat\n  21. Dog\n"
        #expect(terminal.output.contains(lines), "\(terminal.output)")
    }

    @Test func detailsComeUnderTheTitle() {
        let (ui, terminal) = makeUI(["1"])
        _ = ui.menu("Places", ["Add"], details: ["France (FR)", "  Paris"])
        #expect(terminal.output.hasPrefix("\nPlaces\n======\nFrance (FR)\n  Paris\n  1. Add\n"))
    }

    @Test func aQuestionIsFollowedByASpaceAndALabelByAColon() {
        let (ui, terminal) = makeUI(["a", "b", "c"])
        _ = ui.ask("Which city?")
        _ = ui.ask("Ποια πόλη;")
        _ = ui.ask("Email")
        #expect(terminal.output == "Which city? Ποια πόλη; Email: ")
    }

    @Test func aFormChecksEachFieldAsItIsEnteredWithItsRuleInThePrompt() {
        let (ui, terminal) = makeUI(["ann", "ann@example.com", "short", "secret12", "other", "secret12"])
        let form = Form(
            title: "Sign up",
            fields: [
                .init(key: "email", label: "Email", check: { value, _ in value.contains("@") ? nil : "Email is not valid." }),
                .init(
                    key: "password", label: "Password", isSecret: true, rule: "at least 8 characters",
                    check: { value, _ in value.count >= 8 ? nil : "Too short." }),
                .init(
                    key: "confirmation", label: "Again", isSecret: true,
                    check: { value, earlier in value == earlier["password"] ? nil : "They differ." }),
            ])
        #expect(ui.fill(form) == .submitted(["email": "ann@example.com", "password": "secret12", "confirmation": "secret12"]))
        // Each problem right after its field, and only that field asked again.
        #expect(
            terminal.output.hasSuffix(
                "Email: ! Email is not valid.\nEmail: Password (at least 8 characters): ! Too short.\n"
                    + "Password (at least 8 characters): Again: ! They differ.\nAgain: "))
    }

    @Test func aFormGoesBackOnAnyEmptyFieldAndEndsWithInput() {
        let form = Form(title: "T", fields: [.init(key: "a", label: "A"), .init(key: "b", label: "B")])
        #expect(makeUI(["  "]).0.fill(form) == .cancelled)
        #expect(makeUI(["a", ""]).0.fill(form) == .cancelled)
        #expect(makeUI(["a"]).0.fill(form) == .endOfInput)
    }

    @Test func continueCancelRunsTheHandlerOnlyOnContinue() {
        var ran = 0
        for answer in ["0", "", "q"] {
            #expect(!makeUI([answer]).0.confirm("Log Out", "Sure?") { ran += 1 })
        }
        #expect(!makeUI([]).0.confirm("Log Out", "Sure?") { ran += 1 })
        #expect(makeUI(["1"]).0.confirm("Log Out", "Sure?") { ran += 1 })
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
