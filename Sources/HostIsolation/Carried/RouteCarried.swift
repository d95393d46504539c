/// A contracts type that is neither Codable nor a route but crosses all the same: marked
/// `// modhost: carried by the host` where it is declared, so that the generated proxy hands
/// it to ``carry(into:)`` and the generated dispatcher reads it back with
/// ``carried(_:from:)``. Its values cross as values; its closures stay in the sender's process,
/// behind an object the receiver calls back.
package protocol RouteCarried {
    /// Puts the value in the call's next argument.
    func carry(into arguments: inout RouteArguments)
    /// The value in argument `index` of a call received.
    static func carried(_ index: Int, from call: RouteCallReader) throws(RouteCallError) -> Self
}
