/// A route declared in a plain (static) target that two test libraries link: each carries
/// its own copy of the protocol, the mistake the host must name (two identities, one name).
public protocol SplitRoute: Sendable {
    func answer() -> String
}
