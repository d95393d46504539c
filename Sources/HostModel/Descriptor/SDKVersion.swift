/// A semantic version `MAJOR.MINOR.PATCH` as the SDK and contracts libraries write them
/// (digits only): what the host compares to decide whether a module built against one release
/// may run with another.
public struct SDKVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int

    /// `nil` for anything but three dot-separated numbers without leading zeros.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.utf8.allSatisfy({ (48...57).contains($0) }), part == "0" || part.first != "0",
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        (major, minor, patch) = (numbers[0], numbers[1], numbers[2])
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    /// "1.4": what a message names when only the major and minor matter.
    public var minorRelease: String { "\(major).\(minor)" }

    public static func < (left: SDKVersion, right: SDKVersion) -> Bool {
        (left.major, left.minor, left.patch) < (right.major, right.minor, right.patch)
    }

    /// How a library built against `built` fares with `held`, the release the process has.
    public static func fit(built: SDKVersion, held: SDKVersion) -> Fit {
        if built.major != held.major { return .otherMajor }
        return built.minor > held.minor ? .newerMinor : .fits
    }

    public enum Fit: Sendable, Equatable {
        /// Same major, and a minor up to the held one: everything it was built against is there.
        case fits
        /// Same major, but it may use what a later minor added.
        case newerMinor
        /// Another major: something it was built against may have changed or gone.
        case otherMajor
    }
}
