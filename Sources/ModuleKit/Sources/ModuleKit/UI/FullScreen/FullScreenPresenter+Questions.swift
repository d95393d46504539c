/// Questions: a line to type with its suggestions, a form, a confirmation, an alert.
extension FullScreenPresenter {
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
                    let value = field.isSecret ? raw : raw.trimmedOfSpaces()
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
