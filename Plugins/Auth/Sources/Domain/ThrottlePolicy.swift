/// How repeated failures for one account slow down further attempts: after
/// ``freeFailures`` failures in a row, each failure locks the account for twice as long as
/// the one before, from ``firstLockSeconds`` up to ``longestLockSeconds``. A success clears it.
public struct ThrottlePolicy: Sendable {
    public var freeFailures = 5
    public var firstLockSeconds = 30
    public var longestLockSeconds = 15 * 60

    public init() {}

    /// Seconds to lock the account after its `failures`-th failure in a row (0: no lock).
    public func lockSeconds(afterFailures failures: Int) -> Int {
        guard failures >= freeFailures else { return 0 }
        let doublings = min(failures - freeFailures, 20)
        return min(longestLockSeconds, firstLockSeconds << doublings)
    }
}
