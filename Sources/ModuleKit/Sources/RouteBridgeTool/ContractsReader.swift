import SwiftParser
import SwiftSyntax

/// Reads the protocols of a contracts library's sources and decides, member by member, how
/// each crosses a process boundary.
///
/// A protocol whose name ends in `Route` is a route. A protocol a route's member returns as
/// `any P` is bridged too, as a remote object. Values cross when they are Codable: the
/// standard scalars, the library's own types that say `Codable`, and optionals, arrays, sets
/// and dictionaries of them. Escaping closures that take values and return nothing cross as
/// remote callbacks. Anything else is a build error naming the member, unless the member is
/// marked `// modhost: in-process only`.
struct ContractsReader {
    /// Scalars that are Codable, with what a non-throwing member answers when the module is gone.
    static let scalars: [String: String] = [
        "String": "\"\"", "Bool": "false", "Int": "0", "Int64": "0", "Int32": "0", "UInt": "0", "UInt64": "0", "UInt32": "0",
        "UInt8": "0", "Double": "0", "Float": "0",
    ]
    static let inProcessMarker = "modhost: in-process only"
    static let carriedMarker = "modhost: carried by the host"

    let module: String
    private var codable: Set<String> = []
    /// Types marked to be carried by the isolation runtime's own conformance.
    private var carried: Set<String> = []
    private var protocols: [String: (ProtocolDeclSyntax, file: String)] = [:]
    private(set) var problems: [CrossingProblem] = []

    init(module: String, sources: [(path: String, text: String)]) {
        self.module = module
        for source in sources {
            let tree = Parser.parse(source: source.text)
            for statement in tree.statements {
                let declaration = statement.item
                if let proto = declaration.as(ProtocolDeclSyntax.self) {
                    protocols[proto.name.text] = (proto, source.path)
                } else if let name = Self.codableName(of: declaration) {
                    codable.insert(name)
                } else if statement.leadingTrivia.description.contains(Self.carriedMarker), let name = Self.typeName(of: declaration) {
                    carried.insert(name)
                }
            }
        }
    }

    /// The name of a struct, enum or class whose inheritance clause says `Codable`.
    private static func codableName(of item: CodeBlockItemSyntax.Item) -> String? {
        let pairs: [(String, InheritanceClauseSyntax?)] = [
            item.as(StructDeclSyntax.self).map { ($0.name.text, $0.inheritanceClause) },
            item.as(EnumDeclSyntax.self).map { ($0.name.text, $0.inheritanceClause) },
            item.as(ClassDeclSyntax.self).map { ($0.name.text, $0.inheritanceClause) },
        ].compactMap { $0 }
        guard let (name, clause) = pairs.first, let clause else { return nil }
        let inherited = Set(clause.inheritedTypes.map { $0.type.trimmedDescription })
        return inherited.contains("Codable") || (inherited.contains("Encodable") && inherited.contains("Decodable")) ? name : nil
    }

    private static func typeName(of item: CodeBlockItemSyntax.Item) -> String? {
        item.as(StructDeclSyntax.self)?.name.text ?? item.as(EnumDeclSyntax.self)?.name.text ?? item.as(ClassDeclSyntax.self)?.name.text
    }

    /// Every route, then every protocol they return, in a stable order.
    mutating func bridgedProtocols() -> [BridgedProtocol] {
        var pending = protocols.keys.filter { $0.hasSuffix("Route") }.sorted()
        var done: [String: BridgedProtocol] = [:]
        var order: [String] = []
        while !pending.isEmpty {
            let name = pending.removeFirst()
            guard done[name] == nil, let (declaration, file) = protocols[name] else { continue }
            let bridged = bridge(declaration, file: file)
            done[name] = bridged
            order.append(name)
            for member in bridged.members {
                if case .remote(let returned) = member.result, done[returned] == nil { pending.append(returned) }
            }
        }
        return order.compactMap { done[$0] }
    }

    private mutating func bridge(_ declaration: ProtocolDeclSyntax, file: String) -> BridgedProtocol {
        let name = declaration.name.text
        let mainActor = Self.isMainActor(declaration.attributes)
        var members: [Member] = []
        for item in declaration.memberBlock.members {
            let inProcess = item.decl.leadingTrivia.description.contains(Self.inProcessMarker)
            let location = "\(file):\(lineOf(item.decl, in: declaration)) \(name)"
            if let function = item.decl.as(FunctionDeclSyntax.self) {
                if let member = readFunction(function, mainActor: mainActor, inProcess: inProcess, location: location) {
                    members.append(member)
                }
            } else if let variable = item.decl.as(VariableDeclSyntax.self) {
                if let member = readProperty(variable, mainActor: mainActor, inProcess: inProcess, location: location) {
                    members.append(member)
                }
            } else if item.decl.is(AssociatedTypeDeclSyntax.self) || item.decl.is(InitializerDeclSyntax.self)
                || item.decl.is(SubscriptDeclSyntax.self)
            {
                problems.append(
                    CrossingProblem(
                        location: location,
                        message: "'\(item.decl.trimmedDescription.prefix(60))' cannot cross a process boundary: "
                            + "a route has only functions and read-only properties"))
            }
        }
        return BridgedProtocol(name: name, module: module, isRoute: name.hasSuffix("Route"), isMainActor: mainActor, members: members)
    }

    private func lineOf(_ node: some SyntaxProtocol, in parent: ProtocolDeclSyntax) -> Int {
        let root = parent.root
        let converter = SourceLocationConverter(fileName: "", tree: root)
        return node.startLocation(converter: converter, afterLeadingTrivia: true).line
    }

    private mutating func readFunction(_ function: FunctionDeclSyntax, mainActor: Bool, inProcess: Bool, location: String) -> Member? {
        let member = "\(function.name.text)(\(function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()))"
        var parameters: [Parameter] = []
        var failed = false
        for parameter in function.signature.parameterClause.parameters {
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            let inner = parameter.secondName?.text ?? parameter.firstName.text
            switch crossing(of: parameter.type, asArgument: true) {
            case .success(let type):
                parameters.append(Parameter(label: label, name: inner, type: type))
            case .failure(let why):
                failed = true
                if !inProcess {
                    problems.append(CrossingProblem(location: "\(location).\(member)", message: "its argument '\(inner)' \(why.text)"))
                }
            }
        }
        if function.genericParameterClause != nil {
            failed = true
            if !inProcess { problems.append(CrossingProblem(location: "\(location).\(member)", message: "a generic member cannot cross")) }
        }
        let throwsErrors = function.signature.effectSpecifiers?.throwsClause != nil
        if function.signature.effectSpecifiers?.asyncSpecifier != nil {
            failed = true
            if !inProcess { problems.append(CrossingProblem(location: "\(location).\(member)", message: "async members do not cross yet")) }
        }
        var result = CrossingType.void
        if let returned = function.signature.returnClause?.type {
            switch crossing(of: returned, asArgument: false) {
            case .success(let type): result = type
            case .failure(let why):
                failed = true
                if !inProcess { problems.append(CrossingProblem(location: "\(location).\(member)", message: "its result \(why.text)")) }
            }
        }
        if !throwsErrors, !inProcess, !failed, case .value(let spelling, nil) = result {
            problems.append(
                CrossingProblem(
                    location: "\(location).\(member)",
                    message: "it does not throw and its result '\(spelling)' has no empty value to answer with when the module's "
                        + "process is gone: make it throw or return an optional"))
        }
        if failed && !inProcess { return nil }
        var written = function.trimmed
        written.attributes = []
        written.leadingTrivia = []
        written.body = nil
        return Member(
            kind: .function, name: function.name.text, parameters: parameters, result: result, throwsErrors: throwsErrors,
            isMainActor: mainActor || Self.isMainActor(function.attributes), inProcessOnly: inProcess || failed,
            declaration: written.trimmedDescription, wireName: member)
    }

    private mutating func readProperty(_ variable: VariableDeclSyntax, mainActor: Bool, inProcess: Bool, location: String) -> Member? {
        guard let binding = variable.bindings.first, let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
            let annotation = binding.typeAnnotation
        else {
            problems.append(CrossingProblem(location: location, message: "a property must be 'var name: Type { get }'"))
            return nil
        }
        let name = identifier.identifier.text
        let accessors = binding.accessorBlock?.trimmedDescription ?? ""
        if accessors.contains("set") {
            problems.append(CrossingProblem(location: "\(location).\(name)", message: "a settable property cannot cross; make it { get }"))
            return nil
        }
        let throwsErrors = accessors.contains("throws")
        switch crossing(of: annotation.type, asArgument: false) {
        case .success(let type):
            if !throwsErrors, !inProcess, case .value(let spelling, nil) = type {
                problems.append(
                    CrossingProblem(
                        location: "\(location).\(name)",
                        message: "it does not throw and its type '\(spelling)' has no empty value to answer with when the "
                            + "module's process is gone: make it an optional"))
                return nil
            }
            return Member(
                kind: .property, name: name, parameters: [], result: type, throwsErrors: throwsErrors,
                isMainActor: mainActor || Self.isMainActor(variable.attributes), inProcessOnly: inProcess,
                declaration: "var \(name): \(annotation.type.trimmedDescription)", wireName: name)
        case .failure(let why):
            if !inProcess { problems.append(CrossingProblem(location: "\(location).\(name)", message: "its value \(why.text)")) }
            return nil
        }
    }

    private static func isMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    /// How `type` crosses, or why it cannot.
    private func crossing(of type: TypeSyntax, asArgument: Bool) -> Result<CrossingType, Why> {
        let spelling = type.trimmedDescription
        if spelling == "Void" || spelling == "()" { return .success(.void) }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            guard asArgument, let function = attributed.baseType.as(FunctionTypeSyntax.self) else {
                return .failure(Why("of type '\(spelling)' cannot cross"))
            }
            let mainActor = Self.isMainActor(attributed.attributes)
            let returned = function.returnClause.type.trimmedDescription
            guard returned == "Void" || returned == "()" else {
                return .failure(Why("is a closure returning '\(returned)': only closures returning nothing cross, as callbacks"))
            }
            var arguments: [String] = []
            for element in function.parameters {
                guard isValue(element.type) else {
                    return .failure(Why("is a closure taking '\(element.type.trimmedDescription)', which is not Codable"))
                }
                arguments.append(element.type.trimmedDescription)
            }
            return .success(.callback(arguments: arguments, isMainActor: mainActor, spelling: spelling))
        }
        if type.is(FunctionTypeSyntax.self) {
            return .failure(Why("is a non-escaping closure, which cannot outlive the call it would cross in"))
        }
        if let existential = type.as(SomeOrAnyTypeSyntax.self), existential.someOrAnySpecifier.text == "any" {
            let name = existential.constraint.trimmedDescription
            guard protocols[name] != nil else {
                return .failure(Why("'\(spelling)' is not a protocol of \(module), so it cannot cross as a remote object"))
            }
            return asArgument ? .failure(Why("'\(spelling)' cannot be sent as an argument yet; only returned")) : .success(.remote(name))
        }
        if asArgument, isCarried(type) { return .success(.carried(spelling)) }
        guard isValue(type) else {
            return .failure(Why("of type '\(spelling)' cannot cross: it is neither Codable nor a route"))
        }
        return .success(.value(spelling, fallback: Self.fallback(of: type)))
    }

    /// A type marked carried, or an array of one.
    private func isCarried(_ type: TypeSyntax) -> Bool {
        if let array = type.as(ArrayTypeSyntax.self) { return isCarried(array.element) }
        guard let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil else { return false }
        return carried.contains(identifier.name.text)
    }

    private func isValue(_ type: TypeSyntax) -> Bool {
        if let optional = type.as(OptionalTypeSyntax.self) { return isValue(optional.wrappedType) }
        if let array = type.as(ArrayTypeSyntax.self) { return isValue(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return isValue(dictionary.key) && isValue(dictionary.value) }
        guard let identifier = type.as(IdentifierTypeSyntax.self) else { return false }
        let name = identifier.name.text
        if let generics = identifier.genericArgumentClause {
            guard ["Set", "Array", "Optional"].contains(name) else { return false }
            return generics.arguments.allSatisfy { argument in
                argument.argument.as(TypeSyntax.self).map(isValue) ?? false
            }
        }
        return Self.scalars[name] != nil || codable.contains(name)
    }

    private static func fallback(of type: TypeSyntax) -> CrossingType.Fallback? {
        if type.is(OptionalTypeSyntax.self) { return CrossingType.Fallback.none }
        if type.is(ArrayTypeSyntax.self) { return .empty("[]") }
        if type.is(DictionaryTypeSyntax.self) { return .empty("[:]") }
        guard let identifier = type.as(IdentifierTypeSyntax.self) else { return nil }
        if ["Set", "Array"].contains(identifier.name.text) { return .empty("[]") }
        if identifier.name.text == "Optional" { return CrossingType.Fallback.none }
        return scalars[identifier.name.text].map { .empty($0) }
    }

    struct Why: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }
}
