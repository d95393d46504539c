/// Fields to ask in order, each checked as it is entered, and a last check of the whole form.
public struct Form: Sendable {
    public struct Field: Sendable {
        public let key: String
        public let label: String
        public let isSecret: Bool
        /// The rule a value must follow, shown in the prompt ("at least 8 characters").
        public let rule: String?
        /// The message for a bad value, given the values entered before it; `nil` when fine.
        public let check: @Sendable (_ value: String, _ earlier: [String: String]) -> String?

        public init(
            key: String, label: String, isSecret: Bool = false, rule: String? = nil,
            check: @escaping @Sendable (_ value: String, _ earlier: [String: String]) -> String? = { _, _ in nil }
        ) {
            self.key = key
            self.label = label
            self.isSecret = isSecret
            self.rule = rule
            self.check = check
        }
    }

    public let title: String
    /// A line under the title (e.g. how to go back).
    public let hint: String?
    public let fields: [Field]
    /// Messages for values that are wrong together; empty when the form is valid.
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
    /// The person left a field empty: go back.
    case cancelled
    /// Input ended.
    case endOfInput
}
