/// What the host was doing in a module when it crashed, hung or exited.
package enum GuardPhase: String, Sendable, CaseIterable {
    /// Opening the library (its constructors) and calling its entry point.
    case load
    /// Decoding its `config` (module code) and reading its strings.
    case configuration
    case register
    /// Its own check of what its configuration names (`modhost check` only).
    case checkResources
    case start
    /// Asking it for its commands or Home entries.
    case contributions
    case command
    /// Showing one of its screens in the app.
    case screen
    case stop
    /// Its own code when the host had not called it: a thread or timer of its own, or a
    /// route another module called (a crash there is found by its address).
    case background
}
