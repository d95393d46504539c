/// The pager: text longer than the screen, scrolled and searched.
extension FullScreenPresenter {
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
}
