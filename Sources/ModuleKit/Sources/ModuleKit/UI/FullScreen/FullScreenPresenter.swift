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
    var notes: [(text: String, style: CellStyle)] = []
    /// The title the notes were printed under ("Help", from a Settings action), which the
    /// screen's own title has replaced by the time they are paged.
    private var notesTitle: String?
    /// A last step the breadcrumb shows for the text in the pager.
    private var pagedTitle: String?
    /// The steps above the first screen here: the breadcrumb of the process that lent this
    /// one the terminal, so that a module's screens in a process of its own read "Home ›
    /// Photos" as they would in the host's.
    var trailAbove: [String] = []
    /// The last feedback line (an error or a success), kept until the next one.
    var status: (text: String, style: CellStyle)?

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
    func clean(_ text: String) -> String { Redaction.redact(text, jsonFields: false) }

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
    func item(at row: Int, in body: [Line], top: Int) -> Int? {
        let line = top + row - 1
        guard row >= 1, row <= bodyRows, body.indices.contains(line) else { return nil }
        return body[line].item
    }

    private var breadcrumb: String {
        let steps = trail
        // The paged text's own title, unless it is the screen's (a screen paging its own text).
        let paged = pagedTitle.flatMap { $0.isEmpty || $0 == steps.last ? nil : $0 }
        return (steps + (paged.map { [$0] } ?? [])).joined(separator: " › ")
    }

    /// The steps above the screen on view — what a screen it lends the terminal to shows
    /// under: the screen on view is a stand-in that gives no title, and its level may still
    /// hold a title the level had before.
    var trailBelowCurrent: [String] {
        let below = titles.prefix(max(depth - 1, 0)).enumerated().map { level, title in
            liveTitles.indices.contains(level) ? liveTitles[level].map(clean) ?? title : title
        }
        return trailAbove + below.filter { !$0.isEmpty }
    }

    /// The breadcrumb's steps as they stand: those above (``trailAbove``), then each screen's.
    var trail: [String] {
        let shown = titles.prefix(max(depth - 1 + self.steps, depth)).enumerated().map { level, title in
            level < depth - 1 && liveTitles.indices.contains(level) ? liveTitles[level].map(clean) ?? title : title
        }
        return trailAbove + shown.filter { !$0.isEmpty }
    }

    /// Rows left for the body: all but the title bar, the status line and the footer.
    var bodyRows: Int { max(session.rows - 3, 1) }

    /// The notes as wrapped body lines.
    func noteLines() -> [Line] {
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
    func pageLongNotes(reserving reserved: Int) -> Bool {
        let lines = noteLines()
        guard !lines.isEmpty, lines.count + 1 + reserved > bodyRows else { return false }
        // Under the title they were printed under: "Home › Settings › Help".
        pagedTitle = notesTitle
        defer { pagedTitle = nil }
        let ended = page(lines.map(\.text))
        notes = []
        return ended
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
