@_spi(Host) import ModuleKit

/// A message of the host's, kept as its key and arguments so it can be said in the person's
/// language when it is printed, and in English (the template here) everywhere else: in
/// `modules --json`, in logs, with `LC_ALL=C`, or when the host's strings cannot be read.
package struct HostText: Sendable, Equatable, CustomStringConvertible {
    /// A value in a message: as it is (a name, a path), or itself a message.
    package enum Argument: Sendable, Equatable {
        case plain(String)
        case text(HostText)
    }

    let key: String
    /// The English text, `%@` for each argument in order.
    let template: String
    let arguments: [Argument]

    package init(_ key: String, _ template: String, _ arguments: [Argument] = []) {
        self.key = key
        self.template = template
        self.arguments = arguments
    }

    /// The text itself, not translated (a name, a path, a detail from elsewhere).
    package static func plain(_ text: String) -> HostText { HostText("", "%@", [.plain(text)]) }

    /// `texts` on one line, separated by `; `.
    package static func joined(_ texts: [HostText]) -> HostText {
        texts.count == 1 ? texts[0] : HostText("", texts.map { _ in "%@" }.joined(separator: "; "), texts.map(Argument.text))
    }

    /// The message with every secret in its values removed (see `Redaction`): a reason that
    /// carries a module's error or a value from modules.json is shown on many paths.
    package func redacted() -> HostText {
        HostText(
            key, template,
            arguments.map { argument in
                switch argument {
                case .plain(let text): .plain(Redaction.redact(text))
                case .text(let text): .text(text.redacted())
                }
            })
    }

    /// English.
    package var description: String { render(nil) }

    /// In `strings`' language when they have this key, else English.
    package func render(_ strings: ModuleStrings?) -> String {
        let values = arguments.map { argument in
            switch argument {
            case .plain(let text): text
            case .text(let text): text.render(strings)
            }
        }
        // In English the template is the table's text (InlineEnglishTests holds the two to each
        // other): no table is read for it.
        if !key.isEmpty, let strings, !strings.isInEnglish, strings[StringKey(key)] != key {
            return strings.format(StringKey(key), arguments: values)
        }
        return ModuleStrings.substitute(template, values)
    }
}

extension StringsError {
    /// The error as a host message, for the person's language (the parser's own detail,
    /// which quotes the file, stays as it is).
    package var text: HostText {
        let module = HostText.Argument.plain(module)
        switch kind {
        case .folderUnreadable(let folder):
            return HostText(
                "strings.folder.unreadable",
                "module '%@': strings folder '%@' cannot be read; is the module's resources folder next to its library?",
                [module, .plain(folder)])
        case .noEnglish(let folder):
            return HostText(
                "strings.no.english", "module '%@': no 'en.lproj/Localizable.strings' in '%@'", [module, .plain(folder)])
        case .syntax(let path, let detail):
            return HostText("", "module '%@': '%@': %@", [module, .plain(path), .plain(detail)])
        case .untrusted(let path, let reason):
            return HostText("strings.untrusted", "module '%@': strings file '%@' %@", [module, .plain(path), .plain(reason)])
        case .noKeys(let path):
            return HostText(
                "strings.no.keys", "module '%@': '%@' holds no strings; every screen would show raw keys", [module, .plain(path)])
        case .controlCharacter(let path, let key, let scalar):
            return HostText(
                "strings.control",
                "module '%@': '%@': the value of '%@' holds the control character %@, which a terminal would obey; remove it",
                [module, .plain(path), .plain("\(Escaped(key))"), .plain(TerminalText.name(of: scalar))])
        @unknown default: return HostText("", "module '%@': %@", [module, .plain("\(kind)")])
        }
    }
}
