/// Fields to ask in order, and a validator that turns values into messages.
public struct Form: Sendable {
    public struct Field: Sendable {
        public let key: String
        public let label: String
        public let isSecret: Bool

        public init(key: String, label: String, isSecret: Bool = false) {
            self.key = key
            self.label = label
            self.isSecret = isSecret
        }
    }

    public let title: String
    /// A line under the title (e.g. how to go back).
    public let hint: String?
    public let fields: [Field]
    /// Messages for invalid values; empty when the form is valid.
    public let validate: @Sendable ([String: String]) -> [String]

    public init(
        title: String, hint: String? = nil, fields: [Field], validate: @escaping @Sendable ([String: String]) -> [String] = { _ in [] }
    ) {
        self.title = title
        self.hint = hint
        self.fields = fields
        self.validate = validate
    }
}

/// How filling a form ended.
public enum FormResult: Equatable {
    /// Valid values, by field key.
    case submitted([String: String])
    /// The person left the first field empty: go back.
    case cancelled
    /// Input ended.
    case endOfInput
}
