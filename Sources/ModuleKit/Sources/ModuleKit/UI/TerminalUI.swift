/// The "View" helpers every module's screens use: titles, numbered menus, prompts, forms
/// and the seed's centralized alerts. Labels (OK, Cancel, …) come from the host's strings so
/// they follow the current locale.
@MainActor
public final class TerminalUI {
    public let terminal: any Terminal
    let labels: @Sendable (UILabel) -> String

    nonisolated public init(terminal: any Terminal, labels: @escaping @Sendable (UILabel) -> String) {
        self.terminal = terminal
        self.labels = labels
    }

    // MARK: - Output

    /// A screen title, underlined (bold on a colour terminal).
    public func title(_ text: String) {
        terminal.write("\n" + style(text, code: "1") + "\n" + String(repeating: "=", count: text.count) + "\n")
    }

    /// A line of text.
    public func print(_ text: String) {
        terminal.write(text + "\n")
    }

    /// An error or validation message (red on a colour terminal).
    public func error(_ text: String) {
        terminal.write(style("! " + text, code: "31") + "\n")
    }

    /// A success message (green on a colour terminal).
    public func success(_ text: String) {
        terminal.write(style(text, code: "32") + "\n")
    }

    private func style(_ text: String, code: String) -> String {
        terminal.usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    // MARK: - Input

    /// Asks for one line; `nil` at end of input.
    public func ask(_ prompt: String, secret: Bool = false) -> String? {
        terminal.write(prompt + ": ")
        let answer = secret ? terminal.readSecret() : terminal.readLine()
        if answer == nil { terminal.write("\n") }  // end of input: end the prompt's line
        return answer
    }

    /// Shows `options` numbered from 1 and asks until a valid number is chosen.
    ///
    /// - Returns: The chosen index (0-based), or `nil` at end of input.
    public func menu(_ title: String, _ options: [String]) -> Int? {
        self.title(title)
        for (index, option) in options.enumerated() {
            print("  \(index + 1). \(option)")
        }
        while true {
            guard let answer = ask(labels(.choose)) else { return nil }
            if let number = Int(answer.trimmingCharacters(in: .whitespaces)), (1...options.count).contains(number) {
                return number - 1
            }
            error(labels(.chooseBetween).replacingOccurrences(of: "%@", with: "\(options.count)"))
        }
    }

    /// Asks each field of `form`, shows its validation messages, and asks again until the
    /// values are valid. An empty first field goes back.
    public func fill(_ form: Form) -> FormResult {
        title(form.title)
        if let hint = form.hint { print(hint) }
        while true {
            var values: [String: String] = [:]
            for (index, field) in form.fields.enumerated() {
                guard let value = ask(field.label, secret: field.isSecret) else { return .endOfInput }
                if index == 0 && value.trimmingCharacters(in: .whitespaces).isEmpty { return .cancelled }
                values[field.key] = field.isSecret ? value : value.trimmingCharacters(in: .whitespaces)
            }
            let problems = form.validate(values)
            if problems.isEmpty { return .submitted(values) }
            for problem in problems { error(problem) }
        }
    }

    // MARK: - Alerts (seed 000's Helpers)

    /// An alert with an OK button.
    public func alertOK(_ title: String, _ message: String) {
        self.title(title)
        print(message)
        _ = ask(labels(.pressEnter))
    }

    /// An alert with OK and Help; Help shows `help` and returns to the alert.
    public func alertOKHelp(_ title: String, _ message: String, help: String) {
        while true {
            guard let choice = menu(title + " — " + message, [labels(.ok), labels(.help)]) else { return }
            if choice == 0 { return }
            print(help)
        }
    }

    /// A Continue/Cancel alert; runs `handler` on Continue.
    ///
    /// - Returns: `true` when the person chose Continue.
    @discardableResult
    public func confirm(_ title: String, _ message: String, onContinue handler: () -> Void = {}) -> Bool {
        print("")
        guard let choice = menu(title + " — " + message, [labels(.cancel), labels(.continue)]), choice == 1 else { return false }
        handler()
        return true
    }
}

/// The labels the UI itself shows, translated by the host.
public enum UILabel: String, Sendable, CaseIterable {
    case ok = "button.ok"
    case help = "button.help"
    case cancel = "button.cancel"
    case `continue` = "button.continue"
    case choose = "prompt.choose"
    case chooseBetween = "prompt.choose.between"
    case pressEnter = "prompt.press.enter"
}
