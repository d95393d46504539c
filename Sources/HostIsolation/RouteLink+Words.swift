import FoundationEssentials
import Glibc

// The words of a route link that need none of its state: what a call is addressed to, how
// long it waits, and how a limit and an error read in its messages.
extension RouteLink {
    /// What a call is addressed to.
    package enum Target: Equatable, Sendable {
        /// A route the other side serves, by its protocol's name.
        case route(String)
        /// An object or callback the other side exported.
        case object(UInt64)
        /// An object that never arrived (its call failed): every call fails.
        case dead

        var name: String {
            switch self {
            case .route(let name): name
            case .object(let reference): "object \(reference)"
            case .dead: "an unavailable object"
            }
        }
    }

    /// How long a call waits for its answer.
    package enum CallWait: Sendable {
        /// As long as the call limit allows each frame (a route call).
        case limited
        /// For ever: a command of the module, which may wait for the person.
        case forTheAnswer
    }

    /// `1 s`, `0.2 s`.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// An error's message as its type tells it to people.
    static func message(of error: any Error) -> String {
        if let described = (error as? any LocalizedError)?.errorDescription { return described }
        return String(describing: error)
    }

    /// Text the other process wrote (an error's message, a refusal), as this side may show it:
    /// every control character, a line's end included, shown as `?`, and at most 2 000
    /// characters, so that it can neither move the cursor nor forge a line of a report.
    static func shown(_ text: String) -> String {
        var shown = String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(2_000).map { scalar in
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : scalar
                }))
        if text.unicodeScalars.count > 2_000 { shown += "…" }
        return shown
    }
}
