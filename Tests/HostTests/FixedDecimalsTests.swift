import HostModel
import Testing

/// `String(format: "%.1f")` without Foundation: the figures `modules --timing`, `check` and
/// `dev` print, rounded half away from zero.
@Suite struct FixedDecimalsTests {
    @Test(arguments: [
        (0.0, 1, "0.0"), (12.34, 1, "12.3"), (12.35, 1, "12.4"), (0.05, 1, "0.1"), (0.0004, 3, "0.000"), (2.3456, 3, "2.346"),
        (1500, 3, "1500.000"), (-1.25, 1, "-1.3"), (-0.04, 1, "0.0"), (9.99, 1, "10.0"), (7, 0, "7"), (1.5, 9, "1.500000"),
        (.nan, 1, "nan"), (.infinity, 1, "inf"), (-.infinity, 1, "-inf"), (1e20, 1, "inf"), (1e13, 6, "inf"),
        (1e15, 1, "1000000000000000.0"),
    ])
    func aNumberIsWrittenWithItsDecimals(value: Double, places: Int, written: String) {
        #expect(FixedDecimals.text(value, places: places) == written)
    }
}
