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
        /// What the field already holds (the email given before a refused log in): shown, and
        /// kept by an empty answer; `nil` for none. Never for a secret.
        ///
        /// - Since: SDK 1.4.0.
        public private(set) var initial: String?

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

        /// The same field, already holding `value` (ignored for a secret).
        ///
        /// - Since: SDK 1.4.0.
        public func holding(_ value: String?) -> Field {
            var field = self
            field.initial = isSecret ? nil : value
            return field
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

extension Form {
    /// The same form, each field already holding its value in `values` (a secret none): asked
    /// again after a refusal, what was given stays.
    ///
    /// - Since: SDK 1.4.0.
    public func holding(_ values: [String: String]) -> Form {
        Form(title: title, hint: hint, fields: fields.map { $0.holding(values[$0.key]) }, validate: validate)
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
