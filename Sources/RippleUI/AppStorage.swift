import Foundation
import RippleCore  // LockedValue

/// An in-memory key-value store for ``AppStorage`` (SwiftUI's apps use `UserDefaults`).
///
/// Views that read a key re-evaluate when it changes, whoever writes it. ``standard`` is shared
/// by every tree in the process, like `UserDefaults.standard`; give a tree (or a subtree) its own
/// with ``View/defaultAppStorage(_:)`` so tests do not share settings:
///
/// ```swift
/// let store = AppStorageStore(["sortByDate": true])
/// let tree = RenderTree(SettingsView().defaultAppStorage(store))
/// ```
///
/// Differs from SwiftUI: the store is this type, not `UserDefaults`, and nothing is persisted.
public final class AppStorageStore: @unchecked Sendable {
    /// The store used when no ``View/defaultAppStorage(_:)`` says otherwise.
    public static let standard = AppStorageStore()

    private let entries: LockedValue<[String: StateStorage<AnyHashable?>]>

    /// A store holding `values`.
    public init(_ values: [String: any Hashable] = [:]) {
        entries = LockedValue(values.mapValues { StateStorage(AnyHashable($0)) })
    }

    func entry(_ key: String) -> StateStorage<AnyHashable?> {
        entries.withLock { entries in
            if let entry = entries[key] { return entry }
            let entry = StateStorage<AnyHashable?>(nil)
            entries[key] = entry
            return entry
        }
    }

    /// The value stored for `key`, if any.
    public func value(forKey key: String) -> (any Hashable)? { entry(key).value?.base as? any Hashable }

    /// Stores `value` for `key` (`nil` removes it); views that read the key re-evaluate.
    public func set(_ value: (any Hashable)?, forKey key: String) { entry(key).value = value.map { AnyHashable($0) } }
}

private struct AppStorageStoreKey: EnvironmentKey {
    static let defaultValue: AppStorageStore? = nil
}

extension EnvironmentValues {
    /// The store ``AppStorage`` uses here.
    var appStorageStore: AppStorageStore? {
        get { self[AppStorageStoreKey.self] }
        set { self[AppStorageStoreKey.self] = newValue }
    }
}

extension View {
    /// Makes `store` the store of the ``AppStorage`` properties of this view and its descendants.
    public func defaultAppStorage(_ store: AppStorageStore) -> some View {
        environment(\.appStorageStore, store)
    }
}

/// Links an `AppStorage` value to the store of its node.
final class StoreLink: @unchecked Sendable {
    private let stored = LockedValue<AppStorageStore?>(nil)
    var current: AppStorageStore? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// A property wrapper that reads and writes a value in an ``AppStorageStore`` (SwiftUI's
/// `AppStorage`, in memory). A body that reads it re-evaluates when the key changes.
@propertyWrapper
public struct AppStorage<Value>: DynamicProperty, NodeInstallable {
    private let key: String
    private let defaultValue: Value
    private let explicitStore: AppStorageStore?
    private let decode: (AnyHashable) -> Value?
    private let encode: (Value) -> AnyHashable?
    private let link = StoreLink()

    init(
        key: String, defaultValue: Value, store: AppStorageStore?, decode: @escaping (AnyHashable) -> Value?,
        encode: @escaping (Value) -> AnyHashable?
    ) {
        self.key = key
        self.defaultValue = defaultValue
        explicitStore = store
        self.decode = decode
        self.encode = encode
    }

    private var store: AppStorageStore { link.current ?? explicitStore ?? .standard }

    /// The stored value, or the default when the key holds none.
    public var wrappedValue: Value {
        get { store.entry(key).value.flatMap(decode) ?? defaultValue }
        nonmutating set { store.entry(key).value = encode(newValue) }
    }

    /// A binding to the stored value.
    public var projectedValue: Binding<Value> {
        let this = self
        return Binding(
            // Its readers depend on the key by themselves: no snapshot.
            identity: AnyHashable(ObjectIdentifier(store.entry(key))), snapshot: nil, get: { this.wrappedValue },
            set: { this.wrappedValue = $0 })
    }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        let store = explicitStore ?? node.environment.appStorageStore ?? .standard
        link.current = store
        node.name(store.entry(key), label)
    }
}

extension AppStorage {
    /// Stores a Boolean under `key`.
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil) where Value == Bool {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0.base as? Bool }, encode: { $0 })
    }
    /// Stores an integer under `key`.
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil) where Value == Int {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0.base as? Int }, encode: { $0 })
    }
    /// Stores a double under `key`.
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil) where Value == Double {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0.base as? Double }, encode: { $0 })
    }
    /// Stores a string under `key`.
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil) where Value == String {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0.base as? String }, encode: { $0 })
    }
    /// Stores a URL under `key`.
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil) where Value == URL {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0.base as? URL }, encode: { $0 })
    }
    /// Stores data under `key`.
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil) where Value == Data {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0.base as? Data }, encode: { $0 })
    }
    /// Stores a string-backed value under `key` (its raw value).
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil)
    where Value: RawRepresentable, Value.RawValue == String {
        self.init(
            key: key, defaultValue: wrappedValue, store: store,
            decode: { ($0.base as? String).flatMap(Value.init(rawValue:)) }, encode: { $0.rawValue })
    }
    /// Stores an integer-backed value under `key` (its raw value).
    public init(wrappedValue: Value, _ key: String, store: AppStorageStore? = nil)
    where Value: RawRepresentable, Value.RawValue == Int {
        self.init(
            key: key, defaultValue: wrappedValue, store: store,
            decode: { ($0.base as? Int).flatMap(Value.init(rawValue:)) }, encode: { $0.rawValue })
    }
}

extension AppStorage where Value: ExpressibleByNilLiteral {
    /// Stores an optional string under `key` (`nil` removes it).
    public init(_ key: String, store: AppStorageStore? = nil) where Value == String? {
        self.init(key: key, defaultValue: nil, store: store, decode: { $0.base as? String }, encode: { $0 })
    }
    /// Stores an optional integer under `key` (`nil` removes it).
    public init(_ key: String, store: AppStorageStore? = nil) where Value == Int? {
        self.init(key: key, defaultValue: nil, store: store, decode: { $0.base as? Int }, encode: { $0 })
    }
    /// Stores an optional Boolean under `key` (`nil` removes it).
    public init(_ key: String, store: AppStorageStore? = nil) where Value == Bool? {
        self.init(key: key, defaultValue: nil, store: store, decode: { $0.base as? Bool }, encode: { $0 })
    }
    /// Stores an optional double under `key` (`nil` removes it).
    public init(_ key: String, store: AppStorageStore? = nil) where Value == Double? {
        self.init(key: key, defaultValue: nil, store: store, decode: { $0.base as? Double }, encode: { $0 })
    }
}
