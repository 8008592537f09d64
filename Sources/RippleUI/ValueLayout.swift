@_spi(Reflection) import Swift
import RippleObservation  // Locked

/// What the render tree needs to know about a view type (or any value type it compares), computed
/// once per type from the runtime's field descriptors — never per evaluation: where the dynamic
/// properties are (to connect them to the node) and how to tell two values apart (`@self`).
///
/// Comparing without reflection: a value is "the same" when `==` says so (`Equatable` types);
/// otherwise field by field, where a field is the same when it is `==` (`Equatable`), points at the
/// same source with the same value (bindings), belongs to the node (`@State`, `@StateObject`,
/// `@Environment`: ignored), or has identical bits (class references, closures, plain data,
/// anything else). Identical bits mean the same value — except for a struct holding a binding,
/// which is compared field by field (a hand-made binding is never the same); different bits of a
/// type the tree cannot look into count as a change, which only costs an extra evaluation.
final class ValueLayout: @unchecked Sendable {
    /// A stored field that is a dynamic property: its slot (field index, stable per type), name and
    /// offset, and how to connect it.
    struct Installable {
        let slot: Int
        let label: String
        let offset: Int
        let type: any NodeInstallable.Type
    }

    /// Whether the two values at these addresses are the same value of this type.
    typealias Same = (UnsafeRawPointer, UnsafeRawPointer) -> Bool

    let installables: [Installable]
    let same: Same
    /// The type's name, for the log (`Counter`).
    let typeName: String
    /// Whether the type is a view the render tree handles itself (`_PrimitiveView`).
    let isPrimitiveView: Bool
    /// For a primitive view type, takes a view of this type as `_PrimitiveView`: a cast to the
    /// concrete type, without the conformance lookup of `as? any _PrimitiveView` at each evaluation.
    let asPrimitive: ((any View) -> (any _PrimitiveView)?)?
    /// Whether it is a primitive view whose children are values its parent built
    /// (``StoredChildrenView``): listing them reads nothing, so it needs no tracking scope.
    let listsStoredChildren: Bool
    /// Whether the type is a struct with a ``Binding`` among its fields (or its fields' fields).
    let holdsBindings: Bool
    /// What the test API looks for in views of this type.
    let roles: ViewRoles

    private init(
        installables: [Installable], same: @escaping Same, typeName: String, kind: Any.Type, holdsBindings: Bool
    ) {
        self.installables = installables
        self.holdsBindings = holdsBindings
        roles = ViewRoles(of: kind)
        self.same = same
        self.typeName = typeName
        isPrimitiveView = kind is any _PrimitiveView.Type
        asPrimitive = (kind as? any _PrimitiveView.Type).map { Self.primitiveCast($0) }
        listsStoredChildren = kind is any StoredChildrenView.Type
    }

    /// Takes a view of type `P` as `_PrimitiveView` (`nil` for a view of another type).
    private static func primitiveCast<P: _PrimitiveView>(_: P.Type) -> (any View) -> (any _PrimitiveView)? {
        { view in view as? P }
    }

    /// The layout of `type`, built on first use.
    static func of(_ type: Any.Type) -> ValueLayout {
        let key = ObjectIdentifier(type)
        if let layout = cache.withLock({ $0[key] }) { return layout }
        let layout = build(type)
        return cache.withLock { table in
            if let raced = table[key] { return raced }
            table[key] = layout
            return layout
        }
    }

    private static let cache = LockedValue<[ObjectIdentifier: ValueLayout]>([:])

    /// Where the slots of a hosted style's dynamic properties start (after the host's own fields).
    private static let styleSlots = 10_000

    private static func build(_ type: Any.Type) -> ValueLayout {
        guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) else {
            fatalError(
                "RippleUI: reading the fields of \(type) needs the Swift runtime's field reflection, which Apple "
                    + "systems have from macOS 10.15.4, iOS 13.4, tvOS 13.4 and watchOS 6.2")
        }
        return buildWithFieldReflection(type)
    }

    /// ``build(_:)`` with the runtime's `_forEachField`.
    @available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
    private static func buildWithFieldReflection(_ type: Any.Type) -> ValueLayout {
        func make<T>(_: T.Type) -> ValueLayout {
            var installables: [Installable] = []
            var fields: [(offset: Int, same: Same)] = []
            var holdsBindings = false
            // Only structs are looked into (the runtime lists fields of structs and classes; a
            // class compares by identity, everything else by its bits).
            let isStruct = isStructType(T.self)
            if isStruct {
                _ = _forEachField(of: T.self, options: []) { name, offset, fieldType, _ in
                    if let installable = fieldType as? any NodeInstallable.Type {
                        installables.append(
                            Installable(slot: fields.count, label: String(cString: name), offset: offset, type: installable))
                    } else if T.self is any StyleHosting.Type, String(cString: name) == "style", isStructType(fieldType) {
                        // A style's own dynamic properties live in the node of the view hosting its body.
                        for nested in of(fieldType).installables {
                            installables.append(
                                Installable(
                                    slot: styleSlots + nested.slot, label: nested.label, offset: offset + nested.offset,
                                    type: nested.type))
                        }
                    }
                    fields.append((offset, fieldComparison(fieldType)))
                    if fieldType is any BindingField.Type || (isStructType(fieldType) && of(fieldType).holdsBindings) {
                        holdsBindings = true
                    }
                    return true
                }
            }
            let same: Same
            if let equatable = T.self as? any Equatable.Type {
                same = equality(equatable)
            } else if isStruct, !_isPOD(T.self) {
                let size = MemoryLayout<T>.size
                // Identical bits are the same value, except for a binding: one made by hand
                // reads a source the tree does not know, so it is never the same (as in SwiftUI).
                same = { a, b in
                    if !holdsBindings, bytesEqual(a, b, size) { return true }
                    for field in fields where !field.same(a + field.offset, b + field.offset) { return false }
                    return true
                }
            } else {
                same = bitwise(MemoryLayout<T>.size)
            }
            let typeName = (T.self as? any StyleHosting.Type)?.styleName ?? shortTypeName(T.self)
            return ValueLayout(
                installables: installables, same: same, typeName: typeName, kind: T.self,
                holdsBindings: holdsBindings)
        }
        return _openExistential(type, do: make)
    }

    /// How one field compares.
    private static func fieldComparison(_ type: Any.Type) -> Same {
        if type is any NodeInstallable.Type, !(type is any ObservedObjectField.Type) {
            // State, state objects and environment values come from the node, not the view.
            return { _, _ in true }
        }
        if let binding = type as? any BindingField.Type { return bindingComparison(binding) }
        if let equatable = type as? any Equatable.Type { return equality(equatable) }
        // Nested structs, closures, class references, plain data: what the type's own layout says.
        return of(type).same
    }

    private static func equality<E: Equatable>(_: E.Type) -> Same {
        { a, b in a.assumingMemoryBound(to: E.self).pointee == b.assumingMemoryBound(to: E.self).pointee }
    }

    private static func bindingComparison<B: BindingField>(_: B.Type) -> Same {
        { a, b in a.assumingMemoryBound(to: B.self).pointee.matches(b.assumingMemoryBound(to: B.self).pointee) }
    }

    private static func bitwise(_ size: Int) -> Same {
        { a, b in bytesEqual(a, b, size) }
    }
}

/// Whether two values of the same dynamic type are the same value (``ValueLayout``'s rules);
/// values of different types never are.
func sameValue(_ a: Any, _ b: Any) -> Bool {
    func compare<T>(_ a: T) -> Bool {
        guard let b = b as? T else { return false }
        return sameValue(a, b)
    }
    return _openExistential(a, do: compare)
}

/// Whether two values of type `T` are the same value (``ValueLayout``'s rules).
func sameValue<T>(_ a: T, _ b: T) -> Bool {
    let layout = ValueLayout.of(T.self)
    return withUnsafePointer(to: a) { a in
        withUnsafePointer(to: b) { b in layout.same(UnsafeRawPointer(a), UnsafeRawPointer(b)) }
    }
}

/// Whether `type` is a struct: the first word of type metadata is its kind (0x200 for structs), a
/// stable part of the Swift ABI. The runtime's field walk is only asked about structs.
private func isStructType(_ type: Any.Type) -> Bool {
    unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee == 0x200
}

/// Whether the `count` bytes at `a` and `b` are identical.
private func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var index = 0
    while index + 8 <= count {
        if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
            return false
        }
        index += 8
    }
    while index < count {
        if a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) { return false }
        index += 1
    }
    return true
}

/// A view type's name for the log and ``RenderTree/evaluations(of:)-(String)``: its own name without
/// its generic arguments (`Row`, not `Row<ModifiedContent<…>>`).
func shortTypeName(_ type: Any.Type) -> String {
    let full = String(describing: type)
    guard let bracket = full.firstIndex(of: "<") else { return full }
    return String(full[..<bracket])
}
