import ModuleKit

/// What the input unit's owner decides about an entered text.
public enum InputDecision {
    /// Accept it and go where the navigation says (next step, or back).
    case proceed(Navigation)
    /// Accept it, say what happened in one line, and go where the navigation says.
    case done(String, Navigation)
    /// Refuse it with a message and ask again.
    case retry(String)
}

/// The reusable input unit's public face, its router: parameters through the
/// initializer, every callback through one `configure` — adding a callback breaks every call
/// site instead of being forgotten.
@MainActor
public final class InputRouter {
    let title: String
    /// What the screen asks, as a question ("Which country?").
    let question: String
    /// Answers offered under the question (full screen), filtered as the person types.
    let suggestions: [Suggestion]
    /// The line said when the person leaves the question empty ("Nothing was added.").
    let cancelMessage: String?
    /// What the line holds when the question opens (Rename: the current name); after a
    /// refusal, the refused answer, to mend.
    var initial: String
    private(set) var onDone: ((String) -> InputDecision)?
    private(set) var onCancel: (() -> Navigation)?

    public init(title: String, question: String, suggestions: [Suggestion] = [], cancelMessage: String? = nil, initial: String = "") {
        self.title = title
        self.question = question
        self.suggestions = suggestions
        self.cancelMessage = cancelMessage
        self.initial = initial
    }

    public func configure(onDone: @escaping (String) -> InputDecision, onCancel: @escaping () -> Navigation) {
        self.onDone = onDone
        self.onCancel = onCancel
    }
}

/// The input module's screen: asks one line; an empty line cancels.
public final class InputView: Screen {
    /// The view owns its unit (SILVER's memory rule: popping the view frees the unit).
    let router: InputRouter
    let cancelHint: String

    init(router: InputRouter, cancelHint: String) {
        self.router = router
        self.cancelHint = cancelHint
    }

    public func show(_ ui: TerminalUI) -> Navigation {
        ui.title(router.title)
        ui.print(cancelHint)
        let answer =
            router.suggestions.isEmpty
            ? ui.ask(router.question, initial: router.initial) : ui.ask(router.question, suggestions: router.suggestions)
        guard let text = answer else { return .quit }
        if text.trimmingSpaces().isEmpty {
            // A cancel says so too: every action and every cancel ends with one line.
            if let message = router.cancelMessage { ui.notice(message) }
            return router.onCancel?() ?? .pop
        }
        switch router.onDone?(text) ?? .proceed(.pop) {
        case .proceed(let navigation): return navigation
        case .done(let message, let navigation):
            ui.success(message)
            return navigation
        case .retry(let message):
            ui.error(message)
            // Asked again with the refused answer on the line, to mend.
            router.initial = text
            return .stay
        }
    }
}

/// A SILVER unit's pair: the router to control the unit, the view to show it. Holding
/// the pair keeps both alive until the view is on the navigator, which then owns the unit.
public struct SilverUnit<Router: AnyObject> {
    public let router: Router
    public let view: any Screen
}

/// Builds the reusable input unit (its assembly).
@MainActor
public func InputUnitAssembly(
    title: String, question: String, cancelHint: String, suggestions: [Suggestion] = [], cancelMessage: String? = nil,
    initial: String = ""
) -> SilverUnit<InputRouter> {
    let router = InputRouter(title: title, question: question, suggestions: suggestions, cancelMessage: cancelMessage, initial: initial)
    return SilverUnit(router: router, view: InputView(router: router, cancelHint: cancelHint))
}
