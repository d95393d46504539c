/// What ``TerminalUI`` shows in full-screen mode: the same calls (title, print, menu, ask, a
/// form, a confirmation, an alert) drawn as a whole screen redrawn in place — a title bar with
/// the breadcrumb, the screen's text wrapped at the width, the items with a highlighted
/// selection, a status line with the last feedback, and a footer of keys. Text longer than the
/// screen opens in a pager first. Modules draw nothing themselves.
@MainActor
final class FullScreenPresenter {
    let session: FullScreenSession
    /// The host's string for a key (the UI's labels, and the keys this mode shows).
    let strings: @Sendable (String) -> String
    /// Around each wait for a key: the host's guard stands aside while a person decides.
    let whileWaiting: (() -> InputEvent?) -> InputEvent?

    /// The title of each screen on the navigator's stack, for the breadcrumb.
    private var titles: [String] = []
    /// How many screens are on the stack (set by the navigator before each one shows).
    var depth = 1 {
        didSet { steps = 0 }
    }
    /// The titles the screens below the one on view give now (``Screen/title``), by level;
    /// `nil` where a screen does not say, and its last shown title is used.
    var liveTitles: [String?] = []
    /// The titles the screen on view has given since it began to show: its own, then each
    /// question or list it asks on the way (Places' "Which city?"), a step further each.
    private var steps = 0
    /// What the screen printed since its last question, shown above the next one.
    private var notes: [(text: String, style: CellStyle)] = []
    /// The title the notes were printed under ("Help", from a Settings action), which the
    /// screen's own title has replaced by the time they are paged.
    private var notesTitle: String?
    /// A last step the breadcrumb shows for the text in the pager.
    private var pagedTitle: String?
    /// The last feedback line (an error or a success), kept until the next one.
    private var status: (text: String, style: CellStyle)?

    init(
        session: FullScreenSession, strings: @escaping @Sendable (String) -> String,
        whileWaiting: @escaping (() -> InputEvent?) -> InputEvent?
    ) {
        self.session = session
        self.strings = strings
        self.whileWaiting = whileWaiting
    }

    func label(_ label: UILabel) -> String { strings(label.rawValue) }

    /// A key of this mode's own (the footer's words).
    func text(_ key: FullScreenText) -> String { strings(key.rawValue) }

    // MARK: - Output

    /// A module's text made fit to print (a secret it carries removed).
    private func clean(_ text: String) -> String { Redaction.redact(text, jsonFields: false) }

    /// The breadcrumb's next step: the screen's title, then one step further for each title it
    /// gives while it shows (the same title again is the same step, asked again).
    func title(_ text: String) {
        let text = clean(text)
        var index = max(depth - 1, 0) + steps
        if steps > 0, titles.indices.contains(index - 1), titles[index - 1] == text {
            index -= 1
        } else {
            steps += 1
        }
        if titles.count > index { titles.removeSubrange(index...) }
        while titles.count < index { titles.append("") }
        titles.append(text)
    }

    func print(_ text: String) {
        let current = depth - 1 + max(steps - 1, 0)
        if notes.isEmpty { notesTitle = titles.indices.contains(current) ? titles[current] : nil }
        notes.append((clean(text), []))
    }

    /// `text` on the status line at once, while the app works (no key is read meanwhile).
    func showWorking(_ text: String) {
        session.overwrite(row: session.rows - 2, with: " " + clean(text), style: [.dim])
    }

    /// An error or a success: the status line, until the next key.
    func feedback(_ text: String, error: Bool) {
        feedback(text, style: error ? [.red, .bold] : [.green])
    }

    /// A line on the status line in `style`, until the next key.
    func feedback(_ text: String, style: CellStyle) {
        status = (clean(text), style)
    }

    // MARK: - Frames

    /// One body line: its text, its style, whether it is the selection, and the item (of a
    /// menu or a list of suggestions) a click on it chooses.
    struct Line {
        var text: String
        var style: CellStyle = []
        var selected = false
        var item: Int?
    }

    /// The item of the body line at screen `row` (row 0 is the title bar), with the body
    /// scrolled by `top`.
    private func item(at row: Int, in body: [Line], top: Int) -> Int? {
        let line = top + row - 1
        guard row >= 1, row <= bodyRows, body.indices.contains(line) else { return nil }
        return body[line].item
    }

    private var breadcrumb: String {
        let shown = titles.prefix(max(depth - 1 + self.steps, depth)).enumerated().map { level, title in
            level < depth - 1 && liveTitles.indices.contains(level) ? liveTitles[level].map(clean) ?? title : title
        }
        let steps = shown.filter { !$0.isEmpty }
        // The paged text's own title, unless it is the screen's (a screen paging its own text).
        let paged = pagedTitle.flatMap { $0.isEmpty || $0 == steps.last ? nil : $0 }
        return (steps + (paged.map { [$0] } ?? [])).joined(separator: " › ")
    }

    /// Rows left for the body: all but the title bar, the status line and the footer.
    var bodyRows: Int { max(session.rows - 3, 1) }

    /// The notes as wrapped body lines.
    private func noteLines() -> [Line] {
        notes.flatMap { note in DisplayWidth.wrap(note.text, width: session.columns - 2).map { Line(text: $0, style: note.style) } }
    }

    /// Draws a frame: `body` from `top` (scrolled), the cursor at `cursor` of the body; when
    /// the width is short the footer's `optional` items (keys everyone knows) go first, and
    /// its `fixed` ones (what was typed, a position) are never shortened (see ``fit``).
    func draw(
        body: [Line], footer: [String], optional: Set<String> = [], fixed: Set<String> = [], top: Int = 0,
        cursor: (line: Int, column: Int)? = nil
    ) {
        var grid = ScreenGrid(rows: session.rows, columns: session.columns)
        let columns = session.columns
        // The title bar: the breadcrumb, cut from the left when it is too long.
        var crumb = " " + breadcrumb
        while DisplayWidth.of(crumb) > columns - 1, crumb.count > 2 { crumb = " …" + crumb.dropFirst(3) }
        grid.put(crumb, row: 0, column: 0, style: [.reverse, .bold])
        grid.style(row: 0, [.reverse, .bold])
        for (offset, line) in body.dropFirst(top).prefix(bodyRows).enumerated() {
            let row = 1 + offset
            grid.put(" " + line.text, row: row, column: 0, style: line.selected ? line.style.union(.reverse) : line.style)
            if line.selected { grid.style(row: row, line.style.union(.reverse)) }
        }
        // More above or below than the rows show: a mark at the right edge says so.
        if top > 0 { grid.put("↑", row: 1, column: columns - 1, style: [.bold]) }
        if body.count > top + bodyRows { grid.put("↓", row: bodyRows, column: columns - 1, style: [.bold]) }
        if let status {
            grid.put(" " + DisplayWidth.truncate(status.text, to: columns - 2), row: session.rows - 2, column: 0, style: status.style)
        }
        let keys = " " + Self.fit(footer, optional: optional, fixed: fixed, width: columns - 1)
        grid.put(DisplayWidth.truncate(keys, to: columns), row: session.rows - 1, column: 0, style: [.dim])
        let place = cursor.flatMap { cursor -> (row: Int, column: Int)? in
            let row = 1 + cursor.line - top
            return row >= 1 && row <= bodyRows ? (row, min(cursor.column + 1, columns - 1)) : nil
        }
        session.draw(grid, cursor: place)
    }

    /// The footer's items ("a About") joined in at most `width` columns: without the
    /// `optional` ones, one by one in the footer's order, while they do not fit (the moves
    /// everyone knows go first, `? keys` last), then with the last items as their key alone
    /// ("0/Esc", "q": known to all, so they lose their words first; never a `fixed` one), so
    /// that every key of the screen stays on it as long as the keys alone fit.
    nonisolated static func fit(_ items: [String], optional: Set<String>, fixed: Set<String> = [], width: Int) -> String {
        var shown = items
        let joined = { (items: [String]) in items.joined(separator: " · ") }
        if DisplayWidth.of(joined(shown)) <= width { return joined(shown) }
        for item in items where optional.contains(item) {
            shown.removeAll { $0 == item }
            if DisplayWidth.of(joined(shown)) <= width { return joined(shown) }
        }
        // Every key with its word, closer together, before any word goes.
        for separator in ["  ", " "] where DisplayWidth.of(shown.joined(separator: separator)) <= width {
            return shown.joined(separator: separator)
        }
        var index = shown.count - 1
        while DisplayWidth.of(joined(shown)) > width, index >= 0 {
            if !fixed.contains(shown[index]), let space = shown[index].firstIndex(of: " ") {
                shown[index] = String(shown[index][..<space])
            }
            index -= 1
        }
        return joined(shown)
    }

    /// The next key; `nil` at the end of input. The feedback line has been seen once a key
    /// is pressed: it goes, unless what the key does says something new.
    func nextEvent() -> InputEvent? {
        let event = whileWaiting { session.readKey() }
        // Typing ends it; the mouse and bytes that make no key do not.
        switch event {
        case .key(.mouse)?, .key(.unknown)?: break
        case .key?: status = nil
        default: break
        }
        return event
    }

    /// Shows the notes in the pager when they do not fit above the `reserved` rows of the
    /// question; true when input ended there. Read in the pager, they are not shown again.
    private func pageLongNotes(reserving reserved: Int) -> Bool {
        let lines = noteLines()
        guard !lines.isEmpty, lines.count + 1 + reserved > bodyRows else { return false }
        // Under the title they were printed under: "Home › Settings › Help".
        pagedTitle = notesTitle
        defer { pagedTitle = nil }
        let ended = page(lines.map(\.text))
        notes = []
        return ended
    }

    // MARK: - The pager

    /// Long text, scrolled with the arrows, j/k, PgUp/PgDn, Home/End, searched with `/` (and
    /// `n` for the next match), closed with q, Esc or Enter. True when input ended.
    @discardableResult
    func page(_ content: [String]) -> Bool {
        let content = content.map(clean)
        var top = 0
        var search: LineEditor?
        var query = ""
        var lines = content.flatMap { DisplayWidth.wrap($0, width: session.columns - 2) }
        func find(from start: Int) {
            guard !query.isEmpty else { return }
            let wanted = query.lowercased()
            let order = Array(start..<lines.count) + Array(0..<min(start, lines.count))
            if let match = order.first(where: { lines[$0].lowercased().contains(wanted) }) { top = match }
        }
        while true {
            let last = max(lines.count - bodyRows, 0)
            top = min(max(top, 0), last)
            let shown = "\(min(top + 1, lines.count))–\(min(top + bodyRows, lines.count)) / \(lines.count)"
            var footer = ["↑↓ PgUp PgDn", "/ " + text(.search), "q " + text(.close), "? " + text(.keys), shown]
            let optional: Set = ["↑↓ PgUp PgDn", "? " + text(.keys)]
            var body = lines.map { line in
                Line(text: line, style: !query.isEmpty && line.lowercased().contains(query.lowercased()) ? [.bold] : [])
            }
            var cursor: (line: Int, column: Int)?
            if let search {
                footer = ["Enter " + text(.search), "Esc " + label(.cancel)]
                let prompt = "/" + search.string
                body = Array(body.dropFirst(top).prefix(bodyRows - 1)) + [Line(text: prompt)]
                cursor = (body.count - 1, 1 + search.cursorColumn)
                draw(body: body, footer: footer, cursor: cursor)
            } else {
                draw(body: body, footer: footer, optional: optional, fixed: [shown], top: top)
            }
            guard let event = nextEvent() else { return true }
            guard case .key(let key) = event else {
                lines = content.flatMap { DisplayWidth.wrap($0, width: session.columns - 2) }
                continue
            }
            if var editing = search {
                switch key {
                case .enter:
                    query = editing.string
                    search = nil
                    find(from: top)
                case .escape: search = nil
                default:
                    _ = editing.apply(key)
                    search = editing
                }
                continue
            }
            switch key {
            case .down, .character("j"): top += 1
            case .up, .character("k"): top -= 1
            case .pageDown, .character(" "): top += bodyRows
            case .pageUp: top -= bodyRows
            case .home, .character("g"): top = 0
            case .end, .character("G"): top = last
            case .character("/"): search = LineEditor()
            case .character("n"): find(from: top + 1)
            case .character("?"): page(pagerKeys())
            case .character("q"), .escape, .enter, .backspace: return false
            case .mouse(let mouse) where mouse.action == .wheelDown: top += 3
            case .mouse(let mouse) where mouse.action == .wheelUp: top -= 3
            default: break
            }
        }
    }

    // MARK: - Menus

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
                    status = (label(.chooseAmong).replacingOccurrences(of: "%@", with: allowed(keys, shortcuts, canGoBack)), [.red, .bold])
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

    // MARK: - Questions

    /// One line asked at the bottom of the screen's text, edited in place; Enter gives it, Esc
    /// gives an empty answer (back), Ctrl-D on an empty line ends the input. With
    /// `suggestions`, those the line finds are listed under it, an exact one (its code, title
    /// or a term) first; ↑ ↓ move the selection and Enter answers its value. Only an exact
    /// match is selected by itself: otherwise Enter answers the line as typed, as the line
    /// mode would, until the person moves the selection (so `ES` is Spain, never the first
    /// country whose name begins with it, and an empty line is the module's cancel).
    func ask(_ prompt: String, secret: Bool, above: [Line] = [], suggestions: [Suggestion] = [], initial: String = "") -> String? {
        if pageLongNotes(reserving: above.count + 2 + (suggestions.isEmpty ? 0 : bodyRows / 2)) { return nil }
        let prompt = clean(prompt)
        var editor = LineEditor(initial)
        /// An exact match of the line, selected by itself; anything else only when moved to.
        func exact() -> Int? { Suggestion.filter(suggestions, by: editor.string).first?.isExact(editor.string) == true ? 0 : nil }
        var selected: Int? = exact()
        /// The suggestion the last click hit (the list changes as the line does).
        var clicked: Suggestion?
        while true {
            var body = noteLines()
            if !body.isEmpty { body.append(Line(text: "")) }
            body += above
            // The prompt at its words, then the answer as a terminal lays out a typed line: cut
            // where a row is full, the cursor where the next character goes (a secret shows
            // nothing).
            let laid = DisplayWidth.field(
                prompt: prompt, text: secret ? [] : editor.text, cursor: secret ? 0 : editor.cursor, width: max(session.columns - 3, 8))
            let field = laid.rows
            let fieldStart = body.count
            body += field.map { Line(text: $0) }
            let cursor = (fieldStart + laid.cursor.row, laid.cursor.column)
            let found = Suggestion.filter(suggestions, by: editor.string)
            if let place = selected { selected = found.isEmpty ? nil : min(place, found.count - 1) }
            if !suggestions.isEmpty {
                let room = max(bodyRows - body.count, 1)
                let first = max(0, min((selected ?? 0) - room + 1, found.count - room))
                for (index, suggestion) in found.enumerated().dropFirst(first).prefix(room) {
                    body.append(
                        Line(
                            text: "  " + DisplayWidth.truncate(suggestion.title, to: session.columns - 4), selected: index == selected,
                            item: index))
                }
            }
            let top = max(fieldStart + field.count - bodyRows, 0)
            var footer = ["Enter " + label(.ok), "Esc " + label(.back), "? " + text(.keys)]
            let moves = "↑↓ " + text(.move) + " (\(found.count))"
            if !suggestions.isEmpty { footer.insert(moves, at: 0) }
            draw(body: body, footer: footer, optional: ["? " + text(.keys)], fixed: [moves], top: top, cursor: cursor)
            guard let event = nextEvent() else { return nil }
            guard case .key(let key) = event else { continue }
            switch key {
            case .enter:
                notes = []
                // The selected suggestion, else the line as typed.
                return selected.map { found[$0].value } ?? editor.string
            case .escape:
                notes = []
                return ""
            case .control("d") where editor.text.isEmpty: return nil
            // On an empty line `?` shows the keys; typed after something, it is a character.
            case .character("?") where editor.text.isEmpty: page(questionKeys(suggestions: !suggestions.isEmpty))
            case .mouse(let mouse) where mouse.action == .click:
                // As in a menu: a click selects, a second click on the same one answers it.
                guard let item = item(at: mouse.row, in: body, top: top), found.indices.contains(item) else { continue }
                if item != selected || clicked != found[item] {
                    selected = item
                    clicked = found[item]
                    continue
                }
                notes = []
                return found[item].value
            case .mouse(let mouse) where !found.isEmpty:
                // The wheel moves as ↓ and ↑ do.
                if mouse.action == .wheelDown { selected = min(selected.map { $0 + 1 } ?? 0, found.count - 1) }
                if mouse.action == .wheelUp { selected = selected.flatMap { $0 > 0 || !editor.string.isEmpty ? max($0 - 1, 0) : nil } }
            case .down where !found.isEmpty: selected = min(selected.map { $0 + 1 } ?? 0, found.count - 1)
            case .pageDown where !found.isEmpty: selected = min(max((selected ?? -1) + bodyRows / 2, 0), found.count - 1)
            // Up from the top goes back to the line itself when it is empty.
            case .up where !found.isEmpty: selected = selected.flatMap { $0 > 0 || !editor.string.isEmpty ? max($0 - 1, 0) : nil }
            case .pageUp where !found.isEmpty: selected = selected.map { max($0 - bodyRows / 2, 0) }
            default:
                if editor.apply(key) { selected = exact() }
            }
        }
    }

    /// Each field of `form` in turn, with its rule; a bad value is told and the same field
    /// asked again; the values given so far stay on the screen.
    func fill(_ form: Form) -> FormResult {
        title(form.title)
        if let hint = form.hint { notes.append((clean(hint), [.dim])) }
        let kept = notes
        while true {
            var values: [String: String] = [:]
            var given: [Line] = []
            for field in form.fields {
                /// A refused answer, given back on the line to mend (never a secret).
                var refused: String?
                while true {
                    notes = kept
                    let prompt = (field.rule.map { "\(field.label) (\($0))" } ?? field.label) + ":"
                    // What the field holds is already on the line, to keep or edit.
                    guard let raw = ask(prompt, secret: field.isSecret, above: given, initial: refused ?? field.initial ?? "") else {
                        return .endOfInput
                    }
                    let value = field.isSecret ? raw : raw.trimmingCharacters(in: .whitespaces)
                    if value.isEmpty { return .cancelled }
                    if let problem = field.check(value, values) {
                        feedback(problem, error: true)
                        refused = field.isSecret ? nil : raw
                        continue
                    }
                    status = nil
                    values[field.key] = value
                    given.append(Line(text: "\(clean(field.label)): " + (field.isSecret ? "••••" : value)))
                    break
                }
            }
            let problems = form.validate(values)
            if problems.isEmpty { return .submitted(values) }
            feedback(problems.joined(separator: " "), error: true)
        }
    }

    /// A Continue/Cancel question, opened on Cancel (its yes deletes or replaces something, so
    /// a stray Enter never does): `1`, or Enter once the selection is moved to Continue,
    /// continues; `2`, `0`, Esc and `q` cancel.
    func confirm(_ title: String, _ message: String) -> Bool {
        // A question over the screen: one step further in the breadcrumb (``title(_:)``).
        print(message)
        let choice = menu(
            title, [label(.continue), label(.cancel)], details: [], keys: [1, 2], canGoBack: true, shortcuts: [], selecting: 1,
            quitting: label(.cancel))
        return choice == .item(0)
    }

    /// A message with OK: any of Enter, Esc, q or Space closes it.
    func alertOK(_ title: String, _ message: String) {
        print(message)
        _ = menu(title, [label(.ok)], details: [], keys: [1], canGoBack: true, shortcuts: [], quitting: text(.close))
    }
}

/// The words full-screen mode itself shows, translated by the host.
enum FullScreenText: String {
    case move = "screen.key.move"
    case open = "screen.key.open"
    case search = "screen.key.search"
    case close = "screen.key.close"
    case keys = "screen.key.keys"
    case showAll = "screen.key.all"
    // The keys help (`?`).
    case keysTitle = "screen.keys.title"
    case keysMove = "screen.keys.move"
    case keysOpen = "screen.keys.open"
    case keysNumber = "screen.keys.number"
    case keysFilter = "screen.keys.filter"
    case keysBack = "screen.keys.back"
    case keysQuit = "screen.keys.quit"
    case keysHelp = "screen.keys.help"
    case keysMouse = "screen.keys.mouse"
    case keysAnswer = "screen.keys.answer"
    case keysEdit = "screen.keys.edit"
    case keysSuggestions = "screen.keys.suggestions"
    case keysPager = "screen.keys.pager"
}
