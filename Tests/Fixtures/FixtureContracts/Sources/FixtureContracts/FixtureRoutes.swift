/// Provided by FixtureProvider: a greeting, to prove a call across two loaded libraries.
public protocol GreetingRoute: Sendable {
    func greet(_ name: String) -> String
}

/// Provided by FixtureConsumer: what it saw when it resolved `GreetingRoute` from its own
/// library, so the host can check the cast worked on the module's side too.
public protocol ConsumerReportRoute: Sendable {
    /// The greeting the consumer got through `GreetingRoute` in `start`.
    var greetingSeenAtStart: String { get }
    /// The address of `ServiceLocator.shared` as the consumer's library sees it.
    var sharedLocatorAddress: UInt { get }
}

/// Provided by FixtureThrowsOnStart, which fails to start; so it is never available.
public protocol AlarmRoute: Sendable {
    func ring() -> String
}

/// Provided by no test module.
public protocol UnprovidedRoute: Sendable {}

/// Provided by FixtureCycleA, which requires `CycleBRoute`.
public protocol CycleARoute: Sendable {}

/// Provided by FixtureCycleB, which requires `CycleARoute`.
public protocol CycleBRoute: Sendable {}

/// Provided by FixtureOptional: which of its optional routes it found at start.
public protocol OptionalReportRoute: Sendable {
    /// For each optional route, "available" or the unavailable reason.
    var findings: [String: String] { get }
}

/// Provided by the module that misbehaves on demand, so others can depend on it.
public protocol MisbehaviourRoute: Sendable {}
