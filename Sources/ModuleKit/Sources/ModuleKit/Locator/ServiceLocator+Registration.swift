extension ServiceLocator {
    enum RegistrationKind {
        case route, service
    }

    func register<Value: Sendable>(
        _ type: Value.Type,
        _ lifetime: Lifetime<Value>,
        as kind: RegistrationKind,
        by resolver: ModuleResolver
    ) throws(LocatorError) {
        let id = ObjectIdentifier(type)
        let name = RouteKey.displayName(of: type)
        let module = resolver.moduleName
        let entry = Entry(lifetime, typeName: name, owner: module)
        let failure: LocatorError? = state.withLock { state in
            if state.isSealed {
                return LocatorError(
                    .sealed, type: name,
                    message: "module '\(module)' registered '\(name)' after start-up; register everything in register(_:configuration:)")
            }
            switch kind {
            case .route:
                if let provided = resolver.providedRoutes, !provided.contains(id) {
                    return LocatorError(
                        .notProvided, type: name,
                        message: "module '\(module)' registers route '\(name)' but does not declare it in 'provides'")
                }
                if let existing = state.routes[id] {
                    return LocatorError(
                        .duplicate, type: name,
                        message: "route '\(name)' is provided by both '\(existing.owner)' and '\(module)'")
                }
                state.routes[id] = entry
                state.unavailableReasons[id] = nil
            case .service:
                if resolver.canReach(id) && resolver.reachableRoutes != nil {
                    return LocatorError(
                        .notProvided, type: name,
                        message: "module '\(module)' registers '\(name)' as a service, but declares it as a route; use route(_:_:)")
                }
                if state.services[module]?[id] != nil {
                    return LocatorError(
                        .duplicate, type: name,
                        message: "module '\(module)' registers service '\(name)' twice")
                }
                state.services[module, default: [:]][id] = entry
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Where the shared value `resolver` resolves for `type` lives: the slow path of a
    /// resolve, before the seal or to explain a failure.
    func sharedStorage(of type: any Any.Type, for resolver: ModuleResolver) throws(LocatorError) -> UnsafeMutableRawPointer {
        // Made outside the lock: a lazy singleton's maker may resolve other things. The entry
        // outlives the pointer: the locator never frees an entry (`State.retired`).
        try entry(of: type, for: resolver).sharedValue()
    }

    /// The entry `resolver` reaches for `type`, or why there is none.
    func entry(of type: any Any.Type, for resolver: ModuleResolver) throws(LocatorError) -> AnyEntry {
        let id = ObjectIdentifier(type)
        if resolver.isSealed.load(ordering: .acquiring), let entry = resolver.sealedEntries.pointee.entry(id) {
            return entry
        }
        let name = RouteKey.displayName(of: type)
        let module = resolver.moduleName
        let found: Result<AnyEntry, LocatorError> = state.withLock { state in
            if let service = state.services[module]?[id] {
                return .success(service)
            }
            guard resolver.canReach(id) else {
                return .failure(
                    LocatorError(
                        .undeclared, type: name,
                        message:
                            "module '\(module)' resolved '\(name)', which is neither one of its services nor a route it declares in 'requires' or 'uses'"
                    ))
            }
            if let route = state.routes[id] {
                return .success(route)
            }
            if let reason = state.unavailableReasons[id] {
                return .failure(LocatorError(.unavailable, type: name, message: "route '\(name)' is unavailable: \(reason)"))
            }
            if resolver.reachableRoutes == nil {
                return .failure(LocatorError(.notRegistered, type: name, message: "nothing is registered for '\(name)'"))
            }
            return .failure(
                LocatorError(.unavailable, type: name, message: "route '\(name)' is unavailable: no active module provides it"))
        }
        switch found {
        case .success(let entry): return entry
        case .failure(let error): throw error
        }
    }
}
