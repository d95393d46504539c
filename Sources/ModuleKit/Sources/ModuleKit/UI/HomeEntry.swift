/// An entry a module contributes to the app's Home screen (made and opened on the main actor,
/// with the app's screens).
@MainActor
public struct HomeEntry {
    /// The entry's text, already localized.
    public let title: String
    /// Makes the screen the entry opens; called each time it is chosen.
    public let open: () -> any Screen

    public init(title: String, open: @escaping () -> any Screen) {
        self.title = title
        self.open = open
    }
}
