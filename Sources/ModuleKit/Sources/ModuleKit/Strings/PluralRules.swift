/// A CLDR plural category: which form of a word a count takes in a language.
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}

/// The CLDR cardinal plural rules for whole numbers in the languages modules ship (CLDR 44).
///
/// - en, de, el: `one` for 1, else `other`.
/// - it, es: `one` for 1; `many` for a non-zero multiple of a million; else `other`.
/// - fr: `one` for 0 and 1; `many` for a non-zero multiple of a million; else `other`.
///
/// A language without rules here uses English's.
public enum PluralRules {
    public static func category(of count: Int, language: String) -> PluralCategory {
        let n = count.magnitude
        let million = n != 0 && n % 1_000_000 == 0
        switch language {
        case "fr": return n <= 1 ? .one : million ? .many : .other
        case "es", "it": return n == 1 ? .one : million ? .many : .other
        default: return n == 1 ? .one : .other
        }
    }
}

extension ModuleStrings {
    /// The text for `key` in the form `count` takes in the current language, with each `%@`
    /// replaced by the next argument (pass the count among them, where the text shows it).
    ///
    /// Tables hold one entry per category the language uses: `"key#one"`, `"key#many"`,
    /// `"key#other"`. A missing category falls back to `#other`, then to English, then to a
    /// plain `"key"`.
    public func plural(_ key: StringKey, count: Int, _ arguments: String...) -> String {
        let language = locale.current
        if language == Self.pseudoLocale {
            let english = PluralRules.category(of: count, language: Self.fallbackLocale)
            let text = table(Self.fallbackLocale)?["\(key.rawValue)#\(english.rawValue)"] ?? table(Self.fallbackLocale)?[key.rawValue]
            return Self.substitute(Self.pseudo(text ?? key.rawValue), arguments)
        }
        let category = PluralRules.category(of: count, language: language)
        let english = PluralRules.category(of: count, language: Self.fallbackLocale)
        let candidates = [
            (language, category), (language, .other), (Self.fallbackLocale, english), (Self.fallbackLocale, .other),
        ]
        for (table, form) in candidates {
            if let text = self.table(table)?["\(key.rawValue)#\(form.rawValue)"] { return Self.substitute(text, arguments) }
        }
        return Self.substitute(self[key], arguments)
    }
}
