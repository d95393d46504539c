/// Menus: numbered items, a selection, shortcuts, a filter on long ones, the mouse.
extension FullScreenPresenter {
    /// A menu: the notes and `details` above the items, numbered by `keys`; the selection
    /// moves with the arrows, j/k, Home/End and PgUp/PgDn, Enter opens it; a number chooses at
    /// once when no other starts with it; a shortcut's letter acts at once; 0, Esc or
    /// Backspace go back; q quits, or does what `quitting` says it does here (a question's q
    /// cancels); `?` shows these keys. A menu whose items do not fit on the screen is filtered
    /// by `/` or by a letter that is no key here, fzf-style (``Suggestion``): the items found,
    /// best first; Esc shows them all again. The selection starts on item `selecting`.
    func menu(
        _ title: String, _ items: [String], details: [String], keys: [Int], canGoBack: Bool, shortcuts: [MenuShortcut],
        selecting initial: Int = 0, quitting: String? = nil
    ) -> MenuChoice {
        self.title(title)
        let (items, details) = (items.map(clean), details.map(clean))
        let shortcuts = shortcuts.map { MenuShortcut(key: $0.key, label: clean($0.label)) }
        // The screen scrolls as a whole, its details with it: only notes too long to show with
        // the items open in the pager first.
        if pageLongNotes(reserving: min(items.count, bodyRows / 2) + 1) { return .quit }
        defer { notes = [] }
        let quitWord = quitting ?? label(.quit)
        var selected = min(max(initial, 0), max(items.count - 1, 0))
        /// The first body line shown; kept from one key to the next, so that the text above
        /// the items can be scrolled to.
        var top = 0
        /// Whether the last key moved the view, not the selection (↑ on the first item).
        var scrolled = false
        var typed = ""
        /// What filters the items, while the person filters them.
        var filter: LineEditor?
        /// The item the last click hit (a second click on it opens it).
        var clicked: Int?
        let width = keys.map { String($0).count }.max() ?? 1
        // The items as the filter finds them (number and text), each folded once.
        let filterable = zip(keys, items).enumerated().map { Suggestion("\($1.0). \($1.1)", value: "\($0)") }
        let isShortcut = { (character: Character) in
            shortcuts.contains { String($0.key).lowercased() == String(character).lowercased() }
        }
        while true {
            var body = noteLines()
            if !body.isEmpty { body.append(Line(text: "")) }
            for detail in details { body += DisplayWidth.wrap(detail, width: session.columns - 2).map { Line(text: $0) } }
            if !details.isEmpty { body.append(Line(text: "")) }
            let first = body.count
            // The items shown: all, or those the filter finds, best first.
            let shown: [Int] =
                filter.map { Suggestion.filter(filterable, by: $0.string).compactMap { Int($0.value) } } ?? Array(items.indices)
            if !shown.isEmpty && !shown.contains(selected) { selected = shown[0] }
            let position = shown.firstIndex(of: selected) ?? 0
            for index in shown {
                let key = keys[index]
                let number = String(repeating: " ", count: width - String(key).count) + "\(key)."
                let prefix = " " + number + " "
                let wrapped = DisplayWidth.wrap(items[index], width: max(session.columns - 2 - DisplayWidth.of(prefix), 8))
                for (lineIndex, line) in wrapped.enumerated() {
                    let lead = lineIndex == 0 ? prefix : String(repeating: " ", count: DisplayWidth.of(prefix))
                    body.append(Line(text: lead + line, selected: index == selected, item: index))
                }
            }
            let fitsOnScreen = body.count <= bodyRows
            // Scrolled so the selection shows, with the text above it when it fits; unless the
            // person scrolled up past the first item to read what is above.
            let selectedLines = body.indices.filter { body[$0].selected }
            let (selectedFirst, selectedLast) = (selectedLines.first ?? first, selectedLines.last ?? first)
            let lastTop = max(body.count - bodyRows, 0)
            if !scrolled {
                if position == 0 && selectedLast < bodyRows { top = 0 }
                if selectedLast >= top + bodyRows { top = selectedLast - bodyRows + 1 }
                if selectedFirst < top { top = selectedFirst }
            }
            top = min(max(top, 0), lastTop)
            scrolled = false
            let moves = ["↑↓ " + text(.move), "Enter " + text(.open)]
            var footer = moves + shortcuts.map { "\($0.key) \($0.label)" }
            if canGoBack { footer.append("0/Esc " + label(.back)) }
            footer.append("q " + quitWord)
            footer.append("? " + text(.keys))
            var fixed: Set<String> = []
            if let filter {
                // The filter in the footer, as typed; Esc leaves it.
                footer = ["/" + filter.string + " (\(shown.count))", "Esc " + text(.showAll)] + moves
                fixed = [footer[0]]
            } else if !typed.isEmpty {
                let choosing = label(.choose) + " " + typed
                footer.insert(choosing, at: 0)
                fixed = [choosing]
            }
            draw(body: body, footer: footer, optional: Set(moves + ["? " + text(.keys)]), fixed: fixed, top: top)
            guard let event = nextEvent() else { return .quit }
            guard case .key(let key) = event else { continue }
            let move = { (offset: Int) in
                guard !shown.isEmpty else { return }
                selected = shown[min(max(position + offset, 0), shown.count - 1)]
            }
            if var editor = filter {
                // Filtering: what is typed edits the filter; Enter opens the best found.
                switch key {
                case .escape:
                    filter = nil
                case .enter:
                    if !shown.isEmpty { return .item(selected) }
                case .up: move(-1)
                case .down: move(1)
                case .pageUp: move(-max(bodyRows - 2, 1))
                case .pageDown: move(max(bodyRows - 2, 1))
                case .backspace where editor.text.isEmpty: filter = nil
                case .mouse(let mouse) where mouse.action == .click:
                    guard let item = item(at: mouse.row, in: body, top: top) else { continue }
                    if item == selected && clicked == item { return .item(item) }
                    selected = item
                    clicked = item
                default:
                    if editor.apply(key) {
                        filter = editor
                        top = 0
                    }
                }
                continue
            }
            let upKey = key == .up || key == .character("k") && !isShortcut("k")
            switch key {
            // At the first item, ↑ and PgUp scroll the text above it into view.
            case _ where upKey && position == 0 && top > 0:
                top -= 1
                scrolled = true
            case .pageUp where position == 0 && top > 0:
                top -= max(bodyRows - 1, 1)
                scrolled = true
            case .up: move(-1)
            case .down: move(1)
            case .character("k") where !isShortcut("k"): move(-1)
            case .character("j") where !isShortcut("j"): move(1)
            case .home:
                selected = shown.first ?? 0
                top = 0
                scrolled = true
            case .end: move(shown.count)
            case .pageUp: move(-max(bodyRows - 2, 1))
            case .pageDown: move(max(bodyRows - 2, 1))
            case .enter:
                if !typed.isEmpty {
                    if let index = keys.firstIndex(of: Int(typed) ?? -1) { return .item(index) }
                    typed = ""
                    continue
                }
                if !items.isEmpty { return .item(selected) }
            case .character(let character) where character.isASCII && character.isNumber:
                if typed.isEmpty && character == "0" {
                    if canGoBack { return .back }
                    continue
                }
                typed.append(character)
                let matches = keys.filter { String($0).hasPrefix(typed) }
                if matches.isEmpty {
                    status = (label(.chooseAmong).replacing("%@", with: allowed(keys, shortcuts, canGoBack)), [.red, .bold])
                    typed = ""
                } else if matches.count == 1, let index = keys.firstIndex(of: matches[0]), String(matches[0]) == typed {
                    return .item(index)
                } else if let index = keys.firstIndex(where: { String($0).hasPrefix(typed) }) {
                    selected = index
                }
            case .backspace where !typed.isEmpty: typed.removeLast()
            case .escape, .backspace, .left:
                if canGoBack { return .back }
            case .character("q"), .character("Q"): return .quit
            case .character(let character) where isShortcut(character):
                if let shortcut = shortcuts.first(where: { String($0.key).lowercased() == String(character).lowercased() }) {
                    return .shortcut(shortcut.key)
                }
            case .character("?"):
                page(
                    menuKeys(
                        shortcuts: shortcuts, canGoBack: canGoBack, quitting: quitWord, filters: !fitsOnScreen || items.count > bodyRows))
            // A long menu is filtered by `/`, or by a letter that is no key here (it begins the filter).
            case .character("/") where !fitsOnScreen:
                filter = LineEditor()
                top = 0
            case .character(let character) where !fitsOnScreen && character.isLetter:
                filter = LineEditor(String(character))
                top = 0
            case .right where !items.isEmpty: return .item(selected)
            case .mouse(let mouse):
                switch mouse.action {
                case .wheelUp where position == 0 && top > 0:
                    top -= 1
                    scrolled = true
                case .wheelUp: move(-1)
                case .wheelDown: move(1)
                // A click selects; a second click on the same item opens it. So a double click
                // opens, even on the item selected already, and its second press never lands
                // on the next screen.
                case .click:
                    guard let item = item(at: mouse.row, in: body, top: top) else { continue }
                    if item == selected && clicked == item { return .item(item) }
                    selected = item
                    clicked = item
                }
            default: break
            }
        }
    }

    private func allowed(_ keys: [Int], _ shortcuts: [MenuShortcut], _ canGoBack: Bool) -> String {
        (keys.map(String.init) + shortcuts.map { String($0.key) } + (canGoBack ? ["0"] : []) + ["q"]).joined(separator: ", ")
    }
}
