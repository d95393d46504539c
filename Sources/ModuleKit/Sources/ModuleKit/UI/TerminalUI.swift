/// The "View" helpers every module's screens use: titles, numbered menus, prompts, forms
/// and the alerts, kept in one place. Labels (OK, Cancel, …) come from the host's strings so
/// they follow the current locale.
@MainActor
public final class TerminalUI {
    public let terminal: any Terminal
    let labels: @Sendable (UILabel) -> String
    /// While the app runs full screen (see ``enterFullScreen(strings:whileWaiting:)``): what
    /// draws every call below; `nil` in the line mode.
    var fullScreen: FullScreenPresenter?
    /// The breadcrumb of the process that lent this one the terminal, above every screen here
    /// (``showScreens(under:)``), asked before each screen; kept across full screen left and
    /// entered again meanwhile.
    var trailAbove: @MainActor () -> [String] = { [] }

    nonisolated public init(terminal: any Terminal, labels: @escaping @Sendable (UILabel) -> String) {
        self.terminal = terminal
        self.labels = labels
    }

    // MARK: - Output

    /// A screen title, underlined (bold on a colour terminal).
    public func title(_ text: String) {
        if let fullScreen { return fullScreen.title(text) }
        show(["\n", text, "\n", String(repeating: "=", count: text.count), "\n"], styled: [1: "1"])
    }

    /// A line of text.
    public func print(_ text: String) {
        if let fullScreen { return fullScreen.print(text) }
        show([text, "\n"])
    }

    /// An error or validation message (red on a colour terminal).
    public func error(_ text: String) {
        if let fullScreen { return fullScreen.feedback(text, error: true) }
        show(["! " + text, "\n"], styled: [0: "31"])
    }

    /// A success message (green on a colour terminal).
    public func success(_ text: String) {
        if let fullScreen { return fullScreen.feedback(text, error: false) }
        show([text, "\n"], styled: [0: "32"])
    }

    /// What an action came to when it is neither an error nor a success: "Nothing was added."
    /// after a cancel. Full screen, on the status line, where errors and successes are (and
    /// never in the pager, which a line printed above a long screen would open); in the line
    /// mode a line like ``print(_:)``.
    ///
    /// - Since: SDK 1.6.0.
    public func notice(_ text: String) {
        if let fullScreen { return fullScreen.feedback(text, style: []) }
        show([text, "\n"])
    }

    /// Everything a screen writes goes through here, redacted and shown: a module's text may
    /// carry a secret (an error quoting a URL with its key), and text from a server or a file
    /// may carry terminal escapes, written as `?` (``TerminalText``). JSON fields keep their
    /// values: a module's `--json` document may have a field named `key` (see
    /// `Redaction.redact(_:jsonFields:)`). The parts at the indices of `styled` get that SGR
    /// code on a colour terminal: the only escapes written, the kit's own.
    private func show(_ parts: [String], styled: [Int: String] = [:]) {
        var composed = ""
        for (index, part) in parts.enumerated() {
            let text = TerminalText.visible(Redaction.redact(part, jsonFields: false))
            if let code = styled[index], terminal.usesColor {
                composed += "\u{1B}[\(code)m\(text)\u{1B}[0m"
            } else {
                composed += text
            }
        }
        if let composing = terminal as? any ComposedOutput { composing.writeComposed(composed) } else { terminal.write(composed) }
    }

    private func show(_ text: String) { show([text]) }

    // MARK: - Input

    /// Asks for one line; `nil` at end of input. A prompt that is a question ("Which city?",
    /// Greek "Ποια πόλη;") is followed by a space, any other by ": ".
    public func ask(_ prompt: String, secret: Bool = false) -> String? {
        if let fullScreen { return fullScreen.ask(prompt, secret: secret) }
        // (In the pseudo-locale a question ends in "? !!]".)
        let end = prompt.hasSuffix(" !!]") ? String(prompt.dropLast(4)) : prompt
        let isQuestion = end.hasSuffix("?") || end.hasSuffix(";") || end.hasSuffix("\u{037E}")
        show(prompt + (isQuestion ? " " : ": "))
        let answer = secret ? terminal.readSecret() : terminal.readLine()
        if answer == nil { show("\n") }  // end of input: end the prompt's line
        return answer
    }

    /// Asks for one line that starts as `initial`, to edit (Rename offers the current name, a
    /// refused answer is given back to mend): full screen the line holds it, the cursor at its
    /// end; the line mode asks as ``ask(_:secret:)``, since an empty answer there is the
    /// module's cancel and a line cannot be typed for the person.
    ///
    /// - Since: SDK 1.6.0.
    public func ask(_ prompt: String, initial: String) -> String? {
        guard let fullScreen else { return ask(prompt) }
        return fullScreen.ask(prompt, secret: false, initial: initial)
    }

    /// Asks for one line, offering `suggestions`: in full screen they show under the question,
    /// filtered as the person types (case and accents ignored, their `terms` too), and Enter
    /// on one answers its `value`; the line mode asks exactly as ``ask(_:secret:)``. The
    /// suggestions are listed in the given order while nothing is typed (put the likeliest
    /// first: ↓ then Enter picks it). Nothing is selected on an empty line until ↓, so Enter
    /// there answers "" in both modes (the module's cancel); once something is typed, only an
    /// exact answer (a suggestion's value, title or term) is selected by itself, so Enter
    /// answers the line as typed until the person moves the selection. A click selects a
    /// suggestion, a second click on it answers.
    ///
    /// - Since: SDK 1.3.0.
    public func ask(_ prompt: String, suggestions: [Suggestion]) -> String? {
        guard let fullScreen else { return ask(prompt) }
        return fullScreen.ask(prompt, secret: false, suggestions: suggestions)
    }

    /// Each item with its number: `numbers`, else from 1. Items beyond the last number are not
    /// shown (a module's list of numbers shorter than its items), in either mode.
    static func numbered(_ items: [String], _ numbers: [Int]?) -> (items: [String], keys: [Int]) {
        guard let numbers else { return (items, items.indices.map { $0 + 1 }) }
        let count = min(items.count, numbers.count)
        return (Array(items.prefix(count)), Array(numbers.prefix(count)))
    }

    /// The one navigation model of every menu: the title, `details` under it (what the screen
    /// shows), `items` numbered (by `numbers`, else from 1), then a footer of shortcuts — `0` Back (also an empty answer) unless `canGoBack` is
    /// false (the app's first screen), `q` Quit, and `shortcuts` — asked until the answer is
    /// one of them. The end of input is Quit.
    public func menu(
        _ title: String, _ items: [String], details: [String] = [], numbers: [Int]? = nil, canGoBack: Bool = true,
        shortcuts: [MenuShortcut] = []
    ) -> MenuChoice {
        let (items, keys) = Self.numbered(items, numbers)
        if let fullScreen {
            return fullScreen.menu(title, items, details: details, keys: keys, canGoBack: canGoBack, shortcuts: shortcuts)
        }
        self.title(title)
        for line in details { print(line) }
        // On a terminal the numbers are right-aligned ("   3." above "  21."); a pipe keeps the
        // shape scripts have always read ("  3.").
        let width = terminal.isInteractive ? keys.map { String($0).count }.max() ?? 1 : 1
        for (key, item) in zip(keys, items) {
            print("  " + String(repeating: " ", count: max(width - String(key).count, 0)) + "\(key). \(item)")
        }
        var footer = shortcuts.map { "\($0.key) \($0.label)" }
        if canGoBack { footer.append("0 \(labels(.back))") }
        footer.append("q \(labels(.quit))")
        print("  " + footer.joined(separator: " · "))
        while true {
            guard let raw = ask(labels(.choose)) else { return .quit }
            let answer = raw.trimmedOfSpaces().lowercased()
            if let number = Int(answer), let index = keys.firstIndex(of: number) { return .item(index) }
            if canGoBack && (answer.isEmpty || answer == "0") { return .back }
            if answer == "q" { return .quit }
            if let shortcut = shortcuts.first(where: { String($0.key).lowercased() == answer }) { return .shortcut(shortcut.key) }
            let allowed = keys.map(String.init) + shortcuts.map { String($0.key) } + (canGoBack ? ["0"] : []) + ["q"]
            error(labels(.chooseAmong).replacing("%@", with: allowed.joined(separator: ", ")))
        }
    }

    /// Asks each field of `form` in turn, with its rule in the prompt, and checks each value
    /// as it is entered: a bad value is explained and that field asked again. An empty answer
    /// goes back. The whole form's check runs last; a problem there is shown and the form
    /// asked again.
    public func fill(_ form: Form) -> FormResult {
        if let fullScreen { return fullScreen.fill(form) }
        title(form.title)
        if let hint = form.hint { print(hint) }
        while true {
            var values: [String: String] = [:]
            for field in form.fields {
                while true {
                    var prompt = field.rule.map { "\(field.label) (\($0))" } ?? field.label
                    // What it holds is shown, and an empty answer keeps it.
                    if let initial = field.initial { prompt += " [\(initial)]" }
                    guard let raw = ask(prompt, secret: field.isSecret) else { return .endOfInput }
                    var value = field.isSecret ? raw : raw.trimmedOfSpaces()
                    if value.isEmpty, let initial = field.initial { value = initial }
                    if value.isEmpty { return .cancelled }
                    if let problem = field.check(value, values) {
                        error(problem)
                        continue
                    }
                    values[field.key] = value
                    break
                }
            }
            let problems = form.validate(values)
            if problems.isEmpty { return .submitted(values) }
            for problem in problems { error(problem) }
        }
    }

    // MARK: - Full screen

    /// Runs the app full screen from now on (see ``FullScreenPresenter``): the same calls,
    /// drawn as a whole screen. `strings` gives the host's text for a key; `whileWaiting`
    /// wraps each wait for a key (the host's guard stands aside then). `false` when the
    /// terminal cannot, and the line mode stays.
    @_spi(Host)
    public func enterFullScreen(strings: @escaping @Sendable (String) -> String, whileWaiting: @escaping (() -> Void) -> Void) -> Bool {
        guard fullScreen == nil else { return true }
        let session = FullScreenSession(usesColor: terminal.usesColor)
        guard session.enter() else { return false }
        fullScreen = FullScreenPresenter(session: session, strings: strings) { read in
            var event: InputEvent?
            whileWaiting { event = read() }
            return event
        }
        refreshTrailAbove()
        return true
    }

    /// What puts the screen back from full screen (off the alternate screen, the cursor
    /// shown): for the host's guard, on the paths that never return here.
    @_spi(Host)
    public static var fullScreenResetSequence: String { FullScreenSession.leaveSequence }

    /// Back to the line mode: the terminal as it was.
    @_spi(Host)
    public func leaveFullScreen() {
        fullScreen?.session.leave()
        fullScreen = nil
    }

    /// Called by the navigator before each screen: the host shows there what was said while
    /// the screen was full (lines held from standard error).
    @_spi(Host)
    public var beforeEachScreen: (@MainActor (TerminalUI) -> Void)?

    /// Runs `work`, saying meanwhile that the app works: full screen, `text` on the status
    /// line at once (the screen stays), and keys typed meanwhile are dropped afterwards, since
    /// the screen they were typed at did not answer. The line mode just runs it (a script
    /// waits anyway, and its output keeps its shape).
    @_spi(Host)
    public func working<Result>(_ text: String, _ work: () -> Result) -> Result {
        guard let fullScreen else { return work() }
        fullScreen.showWorking(text)
        defer { fullScreen.session.discardTypedInput() }
        return work()
    }

    /// Long text in the pager (full screen), or printed (line mode).
    @_spi(Host)
    public func page(_ text: String) {
        guard let fullScreen else { return print(text) }
        fullScreen.page(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    // MARK: - Alerts

    /// An alert with an OK button.
    public func alertOK(_ title: String, _ message: String) {
        if let fullScreen { return fullScreen.alertOK(title, message) }
        self.title(title)
        print(message)
        _ = ask(labels(.pressEnter))
    }

    /// An alert with OK and Help; Help shows `help` and returns to the alert. Back, Quit and
    /// the end of input close it like OK.
    public func alertOKHelp(_ title: String, _ message: String, help: String) {
        if let fullScreen {
            while case .item(1) = fullScreen.menu(
                title, [labels(.ok), labels(.help)], details: [message], keys: [1, 2], canGoBack: true, shortcuts: [])
            {
                fullScreen.page(help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            }
            return
        }
        while case .item(1) = menu(title + " — " + message, [labels(.ok), labels(.help)]) {
            print(help)
        }
    }

    /// A Continue/Cancel alert: `1` continues and runs `handler`; `0`, an empty answer, `q` and
    /// the end of input cancel (a question is never answered by leaving the app).
    ///
    /// - Returns: `true` when the person chose Continue.
    @discardableResult
    public func confirm(_ title: String, _ message: String, onContinue handler: () -> Void = {}) -> Bool {
        if let fullScreen {
            guard fullScreen.confirm(title, message) else { return false }
            handler()
            return true
        }
        self.title(title)
        print(message)
        print("  1. \(labels(.continue))")
        print("  0 \(labels(.cancel))")
        guard let answer = ask(labels(.choose)), answer.trimmedOfSpaces() == "1" else { return false }
        handler()
        return true
    }
}

/// What a person chose in a ``TerminalUI/menu(_:_:details:numbers:canGoBack:shortcuts:)``.
public enum MenuChoice: Equatable, Sendable {
    /// The item at this index of the items given (whatever number it showed).
    case item(Int)
    /// A footer shortcut, by its key.
    case shortcut(Character)
    /// `0` or an empty answer: the screen below.
    case back
    /// `q`, or the end of input: the app ends.
    case quit
}

/// A shortcut in a menu's footer: a letter and what it does (`l` Log out).
public struct MenuShortcut: Sendable {
    public let key: Character
    public let label: String

    public init(key: Character, label: String) {
        self.key = key
        self.label = label
    }
}

/// The labels the UI itself shows, translated by the host.
public enum UILabel: String, Sendable, CaseIterable {
    case ok = "button.ok"
    case help = "button.help"
    case cancel = "button.cancel"
    case `continue` = "button.continue"
    case back = "button.back"
    case quit = "app.quit"
    case choose = "prompt.choose"
    case chooseAmong = "prompt.choose.among"
    case pressEnter = "prompt.press.enter"
}
