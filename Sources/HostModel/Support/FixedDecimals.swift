/// A number written with a fixed count of decimals (`12.3`), for the figures `String(format:
/// "%.1f")` wrote: `String(format:)` is Foundation's, and the host links only
/// FoundationEssentials (the rest of Foundation, ICU behind it, costs every start about 2 ms to
/// link). Halves round away from zero (`%.1f` rounds the binary value to even).
package enum FixedDecimals {
    /// `value` rounded to `places` decimals (0–6); "nan", "inf" or "-inf" for what is not finite
    /// or too large to write this way (10¹⁸ and more once scaled).
    package static func text(_ value: Double, places: Int) -> String {
        let places = min(max(places, 0), 6)
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        guard value.isFinite, abs(value) * scale < 1e18 else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let fraction = String(scaled % Int64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
