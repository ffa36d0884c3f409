extension PlacementSetting {
    /// Sets this setting on a placement, as `access.set(_:in:)` does (nil takes an optional setting's value away and
    /// leaves no windows; a value of another kind changes nothing), with plain field writes. Decoding sets every
    /// setting of every placement, and a key-path write costs far more: it copies and retains through the key path
    /// machinery. A test holds the two to the same result for every setting.
    package func set(_ value: Located<SettingValue>?, in p: inout Placement) {
        switch self {
        case .format: if let v = value?.format { p.format = v }
        case .adUnit: Self.assign(&p.adUnit, value, value?.text)
        case .enabled: if let v = value?.flag { p.enabled = v }
        case .excludePremium: if let v = value?.flag { p.excludePremium = v }
        case .blockDuringFullscreen: if let v = value?.flag { p.blockDuringFullscreen = v }
        case .minInterval: if let v = value?.duration { p.minInterval = v }
        case .dailyCap: Self.assign(&p.dailyCap, value, value?.count)
        case .hourlyCap: Self.assign(&p.hourlyCap, value, value?.count)
        case .sessionCap: Self.assign(&p.sessionCap, value, value?.count)
        case .caps:
            // `if let`, not `value == nil` (see `assign`).
            if let value { if case .windows(let caps) = value.value { p.caps = caps } } else { p.caps = [] }
        case .maxAdAge: if let v = value?.duration { p.maxAdAge = v }
        case .everyNActions: Self.assign(&p.everyNActions, value, value?.count)
        case .requireUserChoice: if let v = value?.flag { p.requireUserChoice = v }
        case .showOnFirstLoad: if let v = value?.flag { p.showOnFirstLoad = v }
        case .launchMaxWait: Self.assign(&p.launchMaxWait, value, value?.duration)
        case .showIfReady: if let v = value?.flag { p.showIfReady = v }
        case .allowDeferred: if let v = value?.flag { p.allowDeferred = v }
        case .resumeMaxDelay: if let v = value?.duration { p.resumeMaxDelay = v }
        case .graceFirstSessions: if let v = value?.count { p.graceFirstSessions = v }
        case .graceAfterInstall: if let v = value?.duration { p.graceAfterInstall = v }
        case .graceAfterSessionStart: if let v = value?.duration { p.graceAfterSessionStart = v }
        }
    }

    /// An optional setting: nil when no value is given, the value when it has the setting's kind, else unchanged.
    private static func assign<T>(_ field: inout Located<T>?, _ value: Located<SettingValue>?, _ typed: Located<T>?) {
        // A switch, not `value == nil`: the comparison builds a tuple of two optionals, destroyed through the runtime's
        // generic code.
        switch value {
        case nil: field = nil
        case _?: if let typed { field = typed }
        }
    }
}

extension Located where Value == SettingValue {
    var flag: Located<Bool>? { if case .flag(let v) = value { return Located<Bool>(v, at: location) } else { return nil } }
    var count: Located<Int>? { if case .count(let v) = value { return Located<Int>(v, at: location) } else { return nil } }
    var duration: Located<RuleDuration>? { if case .duration(let v) = value { return Located<RuleDuration>(v, at: location) } else { return nil } }
    var format: Located<AdFormat>? { if case .format(let v) = value { return Located<AdFormat>(v, at: location) } else { return nil } }
    var text: Located<String>? { if case .text(let v) = value { return Located<String>(v, at: location) } else { return nil } }
}
