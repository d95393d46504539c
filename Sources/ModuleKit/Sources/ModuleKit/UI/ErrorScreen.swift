/// Shows an error and goes back: for a Home entry whose screen cannot be built.
public final class ErrorScreen: Screen {
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public func show(_ ui: TerminalUI) -> Navigation {
        ui.error(message)
        return .pop
    }
}
