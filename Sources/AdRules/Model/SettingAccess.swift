/// Where one setting lives on a placement or a group: a key path of the setting's value type.
///
/// The optional cases are settings a placement or group may lack (no cap, no wait); the others always
/// have a value, written or built in.
package enum SettingAccess<Root>: Sendable {
    case flag(any WritableKeyPath<Root, Located<Bool>> & Sendable)
    case count(any WritableKeyPath<Root, Located<Int>> & Sendable)
    case optionalCount(any WritableKeyPath<Root, Located<Int>?> & Sendable)
    case duration(any WritableKeyPath<Root, Located<RuleDuration>> & Sendable)
    case optionalDuration(any WritableKeyPath<Root, Located<RuleDuration>?> & Sendable)
    case format(any WritableKeyPath<Root, Located<AdFormat>> & Sendable)
    case text(any WritableKeyPath<Root, Located<String>?> & Sendable)
    case windows(any WritableKeyPath<Root, [Located<WindowCap>]> & Sendable)

    /// Whether the setting may be absent.
    package var isOptional: Bool {
        switch self {
        case .optionalCount, .optionalDuration, .text: return true
        case .flag, .count, .duration, .format, .windows: return false
        }
    }

    /// The setting's value on `root`; nil when it has none. Windows are located at the first window.
    package func value(in root: Root) -> Located<SettingValue>? {
        switch self {
        case .flag(let path): return root[keyPath: path].map(SettingValue.flag)
        case .count(let path): return root[keyPath: path].map(SettingValue.count)
        case .optionalCount(let path): return root[keyPath: path]?.map(SettingValue.count)
        case .duration(let path): return root[keyPath: path].map(SettingValue.duration)
        case .optionalDuration(let path): return root[keyPath: path]?.map(SettingValue.duration)
        case .format(let path): return root[keyPath: path].map(SettingValue.format)
        case .text(let path): return root[keyPath: path]?.map(SettingValue.text)
        case .windows(let path):
            let caps = root[keyPath: path]
            return Located(.windows(caps), at: caps.first?.location ?? .unknown)
        }
    }

    /// Sets the setting on `root`; nil takes an optional setting's value away and leaves no windows. A value
    /// of another kind (which the table never hands out) changes nothing.
    package func set(_ value: Located<SettingValue>?, in root: inout Root) {
        guard let value else {
            switch self {
            case .optionalCount(let path): root[keyPath: path] = nil
            case .optionalDuration(let path): root[keyPath: path] = nil
            case .text(let path): root[keyPath: path] = nil
            case .windows(let path): root[keyPath: path] = []
            case .flag, .count, .duration, .format: break
            }
            return
        }
        let at = value.location
        switch (self, value.value) {
        case (.flag(let path), .flag(let v)): root[keyPath: path] = Located(v, at: at)
        case (.count(let path), .count(let v)): root[keyPath: path] = Located(v, at: at)
        case (.optionalCount(let path), .count(let v)): root[keyPath: path] = Located(v, at: at)
        case (.duration(let path), .duration(let v)): root[keyPath: path] = Located(v, at: at)
        case (.optionalDuration(let path), .duration(let v)): root[keyPath: path] = Located(v, at: at)
        case (.format(let path), .format(let v)): root[keyPath: path] = Located(v, at: at)
        case (.text(let path), .text(let v)): root[keyPath: path] = Located(v, at: at)
        case (.windows(let path), .windows(let caps)): root[keyPath: path] = caps
        default: break
        }
    }
}

extension Located {
    /// The same location with a transformed value. (Inlinable: the decoders call it once a setting, from another module,
    /// where an unspecialized call cost about 470 instructions.)
    @inlinable
    package func map<T: Sendable & Hashable>(_ transform: (Value) -> T) -> Located<T> { Located<T>(transform(value), at: location) }
}

extension SourceLocation {
    /// A location that names no file: where an empty list of windows sits (a list is placed at its first window).
    package static let unknown = SourceLocation(file: SourceFile(""), line: 0, column: 0)
}

