/// What `?` shows on each kind of screen: its keys, in the person's language, in the pager.
extension FullScreenPresenter {
    /// A menu's keys: moving, opening, numbers, its own letters, back, what q does here, the
    /// filter of a long menu, the mouse.
    func menuKeys(shortcuts: [MenuShortcut], canGoBack: Bool, quitting: String, filters: Bool) -> [String] {
        var lines = [text(.keysTitle), "", text(.keysMove), text(.keysOpen), text(.keysNumber)]
        lines += shortcuts.map { "\($0.key)   \($0.label)" }
        if filters { lines.append(text(.keysFilter)) }
        if canGoBack { lines.append(text(.keysBack)) }
        lines.append(ModuleStrings.substitute(text(.keysQuit), [quitting]))
        lines += [text(.keysHelp), text(.keysMouse)]
        return lines
    }

    /// A question's keys: answering, editing the line, and choosing a suggestion.
    func questionKeys(suggestions: Bool) -> [String] {
        var lines = [text(.keysTitle), "", text(.keysAnswer), text(.keysEdit)]
        if suggestions { lines.append(text(.keysSuggestions)) }
        lines.append(text(.keysHelp))
        return lines
    }

    /// The pager's keys.
    func pagerKeys() -> [String] {
        [text(.keysTitle), "", text(.keysPager), text(.keysHelp)]
    }
}
